import { useEffect, useState } from 'preact/hooks';
import { formatElapsed } from '../ui/format';

const TICK_MS = 100;

/**
 * Shown while a run is in flight, timing itself from when it appears. The server gives no partial progress, so
 * the bar is indeterminate (no aria-valuenow) and the elapsed time says that something is happening.
 *
 * The clock lives here rather than in the page so that each tick re-renders this line alone, not the previous
 * results (charts and perhaps thousands of trade rows) that stay visible during the run. `aria-valuetext`
 * changes once a second only: some screen readers speak every change of a progress bar.
 */
export function RunProgress(props: { label: string }) {
  const [elapsedMs, setElapsedMs] = useState(0);
  useEffect(() => {
    const startedAt = performance.now();
    const timer = setInterval(() => setElapsedMs(performance.now() - startedAt), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <div class="run-progress">
      <div class="run-progress__bar" role="progressbar" aria-label={props.label} aria-valuetext={`${Math.floor(elapsedMs / 1000)} s elapsed`}>
        <span class="run-progress__slider" />
      </div>
      <p class="run-progress__text">
        {props.label}… <span class="muted">{formatElapsed(elapsedMs)}</span>
      </p>
    </div>
  );
}
