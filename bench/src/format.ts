/** How the bench writes its figures, in the log and in the report. */

/** A dataset by its size: 10k, 1M. */
export const rowsLabel = (rows: number): string => (rows >= 1_000_000 ? `${rows / 1_000_000}M` : `${rows / 1000}k`);

/** A share (0.5) as a percentage ("50 %"); "n/a" when it is not a number. */
export const percent = (fraction: number): string =>
  Number.isFinite(fraction) ? `${(fraction * 100).toFixed(0)} %` : "n/a";

/** A figure to `digits` decimals; "n/a" when it is not a number. */
export const figure = (value: number, digits = 0): string => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");

/** A ratio as "1.23×"; empty when it is not a number. */
export const times = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}×` : "");

/** A line of the bench's progress, on stderr (stdout carries the report). */
export const log = (message: string): void => console.error(`[bench] ${message}`);
