import { QueryClient, QueryClientProvider, useMutation } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useRef, useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { ActionFailure, ConfirmAction, useConfirming } from "./ConfirmAction.js";

const refused = { status: 409, body: { code: "CONFLICT", status: 409, message: "It is in use." } };

/** A list whose rows each have Remove, asking first, as the pages' tables do. */
function Things({ remove }: { remove: (name: string) => Promise<void> }) {
  const [things, setThings] = useState(["Rex", "Bella"]);
  const listRef = useRef<HTMLUListElement>(null);
  const removing = useConfirming<string>(listRef);
  return (
    <>
      <ul ref={listRef} tabIndex={-1} aria-label="Things">
        {things.map((thing) => (
          <li key={thing}>
            <button type="button" aria-label={`Remove ${thing}`} onClick={() => removing.ask(thing)}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      {removing.subject && (
        <RemoveDialog
          name={removing.subject}
          remove={remove}
          onClose={(removed) => {
            if (removed) setThings((current) => current.filter((thing) => thing !== removing.subject));
            removing.close(removed);
          }}
        />
      )}
    </>
  );
}

function RemoveDialog({
  name,
  remove,
  onClose,
}: {
  name: string;
  remove: (name: string) => Promise<void>;
  onClose: (removed: boolean) => void;
}) {
  const removal = useMutation({ mutationFn: remove, onSuccess: () => onClose(true) });
  return (
    <ConfirmAction
      title={`Remove ${name}?`}
      confirmLabel="Remove it"
      action={removal}
      failure={`${name} was not removed.`}
      onConfirm={() => removal.mutate(name)}
      onCancel={() => onClose(false)}
    >
      <p>{name} goes for good.</p>
    </ConfirmAction>
  );
}

function renderThings(remove: (name: string) => Promise<void>) {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <Things remove={remove} />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe("ConfirmAction", () => {
  it("asks first, in an alertdialog that says what will happen, with the focus on Cancel; Cancel changes nothing and gives the focus back", async () => {
    const remove = vi.fn(async () => {});
    const user = renderThings(remove);
    await user.click(screen.getByRole("button", { name: "Remove Rex" }));

    const dialog = screen.getByRole("alertdialog", { name: "Remove Rex?" });
    expect(dialog).toHaveAccessibleDescription("Rex goes for good.");
    expect(screen.getByRole("button", { name: "Cancel" })).toHaveFocus();

    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(remove).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Remove Rex" })).toHaveFocus();
  });

  it("runs the action once confirmed, busy meanwhile; when the row's button is gone, the list keeps the focus", async () => {
    let finish = () => {};
    const remove = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const user = renderThings(remove);
    await user.click(screen.getByRole("button", { name: "Remove Rex" }));
    await user.click(screen.getByRole("button", { name: "Remove it" }));

    expect(remove).toHaveBeenCalledWith("Rex", expect.anything());
    await waitFor(() => expect(screen.getByRole("button", { name: "Remove it" })).toHaveAttribute("aria-busy", "true"));
    expect(screen.getByRole("button", { name: "Remove it" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Cancel" })).toBeDisabled();

    finish();
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(screen.queryByRole("button", { name: "Remove Rex" })).not.toBeInTheDocument();
    expect(screen.getByRole("list", { name: "Things" })).toHaveFocus();
  });

  it("says a failure in an alert inside the dialog, which stays open to try again", async () => {
    const remove = vi.fn(() => Promise.reject(refused));
    const user = renderThings(remove);
    await user.click(screen.getByRole("button", { name: "Remove Bella" }));
    await user.click(screen.getByRole("button", { name: "Remove it" }));

    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Bella was not removed. It is in use.");
    expect(screen.getByRole("alertdialog", { name: "Remove Bella?" })).toContainElement(alert);
    expect(screen.getByRole("button", { name: "Remove it" })).toBeEnabled();
  });
});

describe("ActionFailure", () => {
  it("is nothing until the action fails, then an alert with the reason", () => {
    const { rerender } = render(
      <ActionFailure action={{ isPending: false, isError: false, error: null }} failure="Rex was not restored." />,
    );
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();

    rerender(
      <ActionFailure action={{ isPending: false, isError: true, error: refused }} failure="Rex was not restored." />,
    );
    expect(screen.getByRole("alert")).toHaveTextContent("Rex was not restored. It is in use.");
  });
});
