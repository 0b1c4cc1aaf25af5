import type { ComponentChildren } from 'preact';
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
 * readers, and `empty` before the first run.
 */
export function ResultsSection(props: { id: string; running: boolean; status: string; empty: string; children: ComponentChildren | undefined }) {
  return (
    <section class="results" aria-labelledby={props.id} aria-busy={props.running}>
      <h2 id={props.id}>Results</h2>
      <p class="visually-hidden" role="status">
        {props.status}
      </p>
      {props.children ? (
        <div class={props.running ? 'results__body results__body--stale' : 'results__body'}>{props.children}</div>
      ) : (
        !props.running && <p class="muted">{props.empty}</p>
      )}
    </section>
  );
}
