import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { z } from "zod";
import { describe, expect, it, vi } from "vitest";
import { fieldErrorsFromApiIssues, fieldErrorsFromSchema } from "./contract-field-errors.js";
import { TextField } from "../design-system/FormFields.js";
import { FormError } from "./FormError.js";
import { useContractForm, type ContractValidation } from "./use-contract-form.js";

const Person = z.object({
  name: z.string().min(1, "name is required"),
  age: z.coerce.number().int().min(1, "age must be at least 1"),
});
type Person = z.infer<typeof Person>;
type Values = { name: string; age: string };
const LABELS = { name: "Name", age: "Age" };
const FIELDS = ["name", "age"] as const;

function validate(values: Values): ContractValidation<keyof Values, Person> {
  const parsed = Person.safeParse(values);
  return parsed.success
    ? { success: true, data: parsed.data }
    : { success: false, errors: fieldErrorsFromSchema(parsed.error.issues, LABELS) };
}

/** A form as the pages write one, with what the hook returns wired to its controls. */
function PersonForm({
  send,
  failWith,
  initial,
}: {
  send: (person: Person) => void;
  failWith?: unknown;
  initial?: () => Values;
}) {
  const form = useContractForm({
    initial: initial ?? { name: "", age: "" },
    fields: FIELDS,
    validate,
    fieldErrorsFromIssues: (issues) => fieldErrorsFromApiIssues(issues, LABELS),
  });
  return (
    <form aria-label="Person" onSubmit={form.handleSubmit(send)} noValidate>
      <FormError message={form.formError} />
      <TextField label="Name" {...form.field("name")} />
      <TextField label="Age" {...form.field("age")} />
      <button type="submit">Save</button>
      <button type="button" onClick={() => form.showFailure(failWith, "Nobody was saved.")}>
        Fail
      </button>
      <button type="button" onClick={form.reset}>
        Reset
      </button>
      <button
        type="button"
        onClick={() => {
          // Two changes before React renders again: both stay.
          form.update("name")("Ada");
          form.update("age")("36");
        }}
      >
        Fill
      </button>
    </form>
  );
}

describe("useContractForm", () => {
  it("sends nothing while the schema refuses the values: each field's problem in its label's words, the focus on the first", async () => {
    const send = vi.fn();
    render(<PersonForm send={send} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole("textbox", { name: "Name" }), "Ada");
    await user.click(screen.getByRole("button", { name: "Save" }));

    expect(send).not.toHaveBeenCalled();
    expect(screen.getByRole("textbox", { name: "Age" })).toHaveAccessibleDescription("Age must be at least 1");
    expect(screen.getByRole("textbox", { name: "Age" })).toBeInvalid();
    expect(screen.queryByText("Name is required")).not.toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Age" })).toHaveFocus();
  });

  it("sends the schema's parsed data once the values pass, and clears the errors shown", async () => {
    const send = vi.fn();
    render(<PersonForm send={send} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.getByText("Name is required")).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Name" })).toHaveFocus();

    await user.type(screen.getByRole("textbox", { name: "Name" }), "Ada");
    await user.type(screen.getByRole("textbox", { name: "Age" }), "36");
    await user.click(screen.getByRole("button", { name: "Save" }));

    expect(send).toHaveBeenCalledExactlyOnceWith({ name: "Ada", age: 36 });
    expect(screen.queryByText("Name is required")).not.toBeInTheDocument();
    expect(screen.queryByText("Age must be at least 1")).not.toBeInTheDocument();
  });

  it("puts an API 400's issues beside the fields they name", async () => {
    const refused = {
      status: 400,
      body: {
        code: "VALIDATION_ERROR",
        status: 400,
        message: "Invalid request.",
        issues: [{ field: "body.name", message: "name is taken" }],
      },
    };
    render(<PersonForm send={vi.fn()} failWith={refused} />);
    await userEvent.setup().click(screen.getByRole("button", { name: "Fail" }));

    expect(screen.getByText("Name is taken")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("says any other failure in the form's alert, with the reason, and takes the alert away at the next submit", async () => {
    const send = vi.fn();
    const conflict = { status: 409, body: { code: "CONFLICT", status: 409, message: "Someone else got there first." } };
    render(<PersonForm send={send} failWith={conflict} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Fail" }));

    expect(screen.getByRole("alert")).toHaveTextContent("Nobody was saved. Someone else got there first.");

    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("keeps every change made before a render, and goes back to the first values on reset", async () => {
    render(<PersonForm send={vi.fn()} initial={() => ({ name: "Bo", age: "7" })} />);
    const user = userEvent.setup();
    expect(screen.getByRole("textbox", { name: "Name" })).toHaveValue("Bo");

    await user.click(screen.getByRole("button", { name: "Fill" }));
    expect(screen.getByRole("textbox", { name: "Name" })).toHaveValue("Ada");
    expect(screen.getByRole("textbox", { name: "Age" })).toHaveValue("36");

    await user.click(screen.getByRole("button", { name: "Reset" }));
    expect(screen.getByRole("textbox", { name: "Name" })).toHaveValue("Bo");
    expect(screen.getByRole("textbox", { name: "Age" })).toHaveValue("7");
  });
});
