import { Notice } from "../design-system/Notice.js";

/** A form's own error (useContractForm's `formError`), in an alert at the top of the form; nothing when there is none. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Notice tone="error" role="alert">
      <p>{message}</p>
    </Notice>
  );
}
