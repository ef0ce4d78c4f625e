import type { StatusCounts } from "@petstore/contract";
import { formatCount } from "../design-system/counts.js";
import { STATUS_COLUMNS } from "./inventory-figures.js";
import styles from "./OverviewPage.module.css";

const HEIGHT = 200;
/** Room above the tallest bar for its number. */
const TOP = 28;
/** Where the bars stand; the statuses' words are written under it. */
const BASELINE = 168;
/** A count above zero shows at least this tall, so a bar of 1 among thousands is still seen. */
const MIN_BAR = 3;
const COLUMN_PERCENT = 100 / STATUS_COLUMNS.length;
const BAR_PERCENT = COLUMN_PERCENT * 0.56;
/** Each status's bar in the colour of its badge. */
const BAR_CLASSES: Record<keyof StatusCounts, string | undefined> = {
  available: styles.barAvailable,
  pending: styles.barPending,
  sold: styles.barSold,
  none: styles.barNone,
};

/** A bar's height for `count` of the tallest `max`: in proportion, at least MIN_BAR when above zero. */
export function barHeight(count: number, max: number): number {
  if (count <= 0 || max <= 0) return 0;
  return Math.max(MIN_BAR, Math.round((count / max) * (BASELINE - TOP)));
}

/**
 * Pets by status as bars, each labelled with its number and its status: an inline SVG as wide as its
 * container (positions in percent, so the text keeps its size on a phone). A picture of the table beside
 * it, which says the same to screen readers and links each count: hidden from them.
 */
export function StatusChart({ counts }: { counts: StatusCounts }) {
  const max = Math.max(...STATUS_COLUMNS.map((column) => counts[column.key]));
  return (
    <svg className={styles.chart} width="100%" height={HEIGHT} aria-hidden="true" focusable="false">
      <line className={styles.axis} x1="0" x2="100%" y1={BASELINE + 0.5} y2={BASELINE + 0.5} />
      {STATUS_COLUMNS.map((column, index) => {
        const count = counts[column.key];
        const height = barHeight(count, max);
        const center = `${(index + 0.5) * COLUMN_PERCENT}%`;
        return (
          <g key={column.key}>
            <rect
              className={BAR_CLASSES[column.key]}
              x={`${index * COLUMN_PERCENT + (COLUMN_PERCENT - BAR_PERCENT) / 2}%`}
              y={BASELINE - height}
              width={`${BAR_PERCENT}%`}
              height={height}
              rx="3"
            />
            <text className={styles.barValue} x={center} y={BASELINE - height - 8} textAnchor="middle">
              {formatCount(count)}
            </text>
            <text className={styles.barLabel} x={center} y={BASELINE + 22} textAnchor="middle">
              {column.heading}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
