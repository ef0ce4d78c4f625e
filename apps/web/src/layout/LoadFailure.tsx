import { describeFailure } from "../api/api-errors.js";
import { Button } from "../design-system/Button.js";
import { Notice } from "../design-system/Notice.js";

interface LoadFailureProps {
  /** What could not be loaded, as a sentence: "The pets could not be loaded." */
  title: string;
  error: unknown;
  onRetry: () => void;
  retrying: boolean;
}

/** A failed query: what failed, why in words staff can act on, and a Retry button. */
export function LoadFailure({ title, error, onRetry, retrying }: LoadFailureProps) {
  return (
    <Notice
      tone="error"
      role="alert"
      action={
        <Button variant="secondary" onClick={onRetry} disabled={retrying}>
          Retry
        </Button>
      }
    >
      <p>
        <strong>{title}</strong> {describeFailure(error)}
      </p>
    </Notice>
  );
}
