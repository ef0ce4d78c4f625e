import styles from "./ProgressBar.module.css";

/**
 * A `progressbar` with an accessible name and a spoken value. With `value`
 * and `max` it fills in proportion; without them (the total is not known yet)
 * it sweeps, and `valueText` alone says how far it has got.
 */
export function ProgressBar({
  label,
  valueText,
  value,
  max,
}: {
  label: string;
  valueText: string;
  value?: number;
  max?: number;
}) {
  const determinate = value !== undefined && max !== undefined;
  const percent = determinate ? (max === 0 ? 100 : Math.round((value / max) * 100)) : undefined;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={determinate ? 0 : undefined}
      aria-valuemax={determinate ? max : undefined}
      aria-valuenow={determinate ? value : undefined}
      aria-valuetext={valueText}
      className={determinate ? styles.track : `${styles.track} ${styles.indeterminate}`}
    >
      <div className={styles.fill} style={percent === undefined ? undefined : { width: `${percent}%` }} />
    </div>
  );
}
