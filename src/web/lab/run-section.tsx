import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Notice } from '../ui/form';
import { RunProgress } from './run-progress';

/** The end of a lab form: the refusal that belongs to no field, the submit button, and progress while running. */
export function RunActions(props: { id: string; formError: string | undefined; running: boolean; disabled: boolean; idle: string; busy: string; progress: string }) {
  return (
    <>
      {props.formError && (
        <div id={props.id}>
          <Notice kind="error">{props.formError}</Notice>
        </div>
      )}
      <div class="actions">
        <button type="submit" disabled={props.running || props.disabled}>
          {props.running ? props.busy : props.idle}
        </button>
        {props.running && <RunProgress label={props.progress} />}
      </div>
    </>
  );
}

/**
 * Where a run's result shows: busy while running (an earlier result stays, dimmed), a status line for screen
 * readers, and `empty` before the first run. A `stale` result (a later run was refused) stays dimmed under a banner
 * saying it is from the previous run. Each new `result` moves focus to the heading, so it does not fall to the
 * page's body when the submit button it was on is disabled for the run.
 */
export function ResultsSection(props: {
  id: string;
  running: boolean;
  status: string;
  empty: string;
  children: ComponentChildren | undefined;
  stale?: boolean;
  result?: unknown;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (props.result !== undefined) heading.current?.focus();
  }, [props.result]);
  const stale = Boolean(props.stale) && !props.running && Boolean(props.children);
  return (
    <section class="results" aria-labelledby={props.id} aria-busy={props.running}>
      <h2 id={props.id} ref={heading} tabIndex={-1}>
        Results{stale && <span class="visually-hidden"> of your previous run</span>}
      </h2>
      <p class="visually-hidden" role="status">
        {props.status}
      </p>
      {stale && <p class="notice notice--info results__stale-banner">These results are from your previous run: the new one could not run (see above).</p>}
      {props.children ? (
        <div class={props.running || stale ? 'results__body results__body--stale' : 'results__body'}>{props.children}</div>
      ) : (
        !props.running && <p class="muted">{props.empty}</p>
      )}
    </section>
  );
}
