import { formatElapsed } from './format';

/**
 * Shown while a run is in flight. The server gives no partial progress, so the bar is indeterminate (no
 * aria-valuenow) and the elapsed time says that something is happening.
 */
export function RunProgress(props: { label: string; elapsedMs: number }) {
  return (
    <div class="run-progress">
      <div class="run-progress__bar" role="progressbar" aria-label={props.label} aria-valuetext={`${formatElapsed(props.elapsedMs)} elapsed`}>
        <span class="run-progress__slider" />
      </div>
      <p class="run-progress__text">
        {props.label}… <span class="muted">{formatElapsed(props.elapsedMs)}</span>
      </p>
    </div>
  );
}
