import { ButtonLink } from "./Button.js";
import { Panel } from "./Panel.js";
import { useDocumentTitle } from "../document/use-document-title.js";

export function NotFound({ title, detail }: { title: string; detail: string }) {
  return (
    <Panel>
      <h1>{title}</h1>
      <p>{detail}</p>
      <ButtonLink to="/pets">Back to pets</ButtonLink>
    </Panel>
  );
}

/** Any signed-in path no page claims. */
export function NotFoundPage() {
  useDocumentTitle("Page not found");
  return <NotFound title="Page not found" detail="There is no page at this address." />;
}
