import {
  forwardRef,
  useId,
  type InputHTMLAttributes,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import styles from "./Field.module.css";

interface FieldProps {
  label: string;
  /** A validation message shown beside the control and announced with it. */
  error?: string | undefined;
  hint?: string;
  optional?: boolean;
}

function describedBy(...ids: Array<string | false | undefined>): string | undefined {
  const joined = ids.filter(Boolean).join(" ");
  return joined || undefined;
}

function FieldFrame({
  id,
  label,
  error,
  hint,
  optional,
  children,
}: FieldProps & { id: string; children: React.ReactNode }) {
  return (
    <div className={styles.field}>
      <div className={styles.labelRow}>
        <label className={styles.label} htmlFor={id}>
          {label}
        </label>
        {/* Visual only, so the accessible name stays exactly `label`; say it in the hint too. */}
        {optional && (
          <span className={styles.optional} aria-hidden="true">
            optional
          </span>
        )}
      </div>
      {children}
      {hint && (
        <p className={styles.hint} id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className={styles.error} id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

export const TextField = forwardRef<HTMLInputElement, FieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, "id">>(
  function TextField({ label, error, hint, optional, ...inputProps }, ref) {
    const id = useId();
    return (
      <FieldFrame id={id} label={label} error={error} hint={hint} optional={optional}>
        <input
          ref={ref}
          id={id}
          className={styles.control}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(error && `${id}-error`, hint && `${id}-hint`)}
          {...inputProps}
        />
      </FieldFrame>
    );
  },
);

export function SelectField({
  label,
  error,
  hint,
  optional,
  children,
  ...selectProps
}: FieldProps & Omit<SelectHTMLAttributes<HTMLSelectElement>, "id">) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} optional={optional}>
      <select
        id={id}
        className={styles.control}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(error && `${id}-error`, hint && `${id}-hint`)}
        {...selectProps}
      >
        {children}
      </select>
    </FieldFrame>
  );
}

export function TextAreaField({
  label,
  error,
  hint,
  optional,
  className,
  ...textAreaProps
}: FieldProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id">) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} optional={optional}>
      <textarea
        id={id}
        className={[styles.control, className].filter(Boolean).join(" ")}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(error && `${id}-error`, hint && `${id}-hint`)}
        {...textAreaProps}
      />
    </FieldFrame>
  );
}
