import type { ComponentChildren, RefObject } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { Notice } from '../ui/form';
import { useFocusFirstInvalid } from '../ui/use-focus-first-invalid';
import { ExecutionFields } from './execution-fields';
import { DEFAULT_EXECUTION_INPUTS, type ExecutionInputs } from './execution-inputs';
import { DataClipNotice } from './data-clip-notice';
import { MarketFields } from './market-fields';
import { DEFAULT_MARKET_INPUTS, type MarketInputs } from './market-inputs';
import { ResultsSection, RunActions } from './run-section';
import type { StrategyTemplate } from './types';
import { useRun, type Run } from './use-run';
import { useTemplates } from './use-templates';

/**
 * What the lab, the comparison and Optimize all hold: the template catalogue, the market inputs, the execution
 * settings ("Costs and sizing"), the run and the form.
 */
export interface LabForm<R> {
  readonly templates: readonly StrategyTemplate[] | undefined;
  readonly catalogueError: string | undefined;
  readonly market: MarketInputs;
  readonly setMarket: (next: MarketInputs) => void;
  readonly execution: ExecutionInputs;
  readonly setExecution: (next: ExecutionInputs) => void;
  readonly run: Run<R>;
  readonly form: RefObject<HTMLFormElement | null>;
  /** The market inputs of the run whose result is on screen (its period is compared with the bars it used). */
  readonly asked: MarketInputs | undefined;
  /** Wraps a run's request so that its answer is remembered with the inputs it was asked with. */
  readonly asking: <T>(inputs: MarketInputs, request: () => Promise<T>) => () => Promise<T>;
}

/** The state of a lab form; after a refused run, focus goes to its first invalid control. */
export function useLabForm<R>(): LabForm<R> {
  const { templates, error: catalogueError } = useTemplates();
  const [market, setMarket] = useState<MarketInputs>(DEFAULT_MARKET_INPUTS);
  const [execution, setExecution] = useState<ExecutionInputs>(DEFAULT_EXECUTION_INPUTS);
  const run = useRun<R>();
  const form = useRef<HTMLFormElement>(null);
  const [asked, setAsked] = useState<MarketInputs | undefined>(undefined);
  useFocusFirstInvalid(form, run.refusals);
  const asking = <T,>(inputs: MarketInputs, request: () => Promise<T>) => async () => {
    const answer = await request();
    setAsked(inputs);
    return answer;
  };
  return { templates, catalogueError, market, setMarket, execution, setExecution, run, form, asked, asking };
}

/**
 * The error keys a change of the control named `name` settles: its own, and for either date the period's
 * (form-errors.ts names the keys after the controls).
 */
export function errorKeysOf(name: string): readonly string[] {
  return name === 'start_date' || name === 'end_date' ? [name, 'period'] : [name];
}

/**
 * Drops the error of the control an event came from. Text is settled on `input`, as it is typed; a choice (select,
 * checkbox, radio) on `change`, after its own handler: on its `input`, a render with the old choice would undo it.
 */
function settleErrorOf(event: Event, run: Run<unknown>, typed: boolean): void {
  const control = event.target as HTMLInputElement | HTMLSelectElement | null;
  if (!control?.name) return;
  const isText = control instanceof HTMLTextAreaElement || (control instanceof HTMLInputElement && control.type !== 'checkbox' && control.type !== 'radio');
  if (isText === typed) run.dismiss(errorKeysOf(control.name));
}

/**
 * A lab page: heading and introduction, the form (market fields, then the page's template fields, "Costs and
 * sizing", the submit row) and the results. `id` prefixes the ids of the form's error (`{id}-form-error`) and of the results heading.
 */
export function LabFormPage<R>(props: {
  id: string;
  title: string;
  intro: ComponentChildren;
  lab: LabForm<R>;
  onSubmit: (event: Event) => void;
  /** The template part of the form; undefined while the catalogue loads. */
  templateFields: ComponentChildren | undefined;
  disabled: boolean;
  /** The submit button's text, idle and running, and the progress bar's label. */
  submit: { idle: string; busy: string; progress: string };
  status: string;
  empty: string;
  results: ComponentChildren | undefined;
  /** The symbol and first and last bar (`YYYY-MM-DD` or a timestamp) of the result on screen. */
  used: { symbol: string; start_date: string; end_date: string } | undefined;
}) {
  const { lab } = props;
  const { run } = lab;
  const formErrorId = `${props.id}-form-error`;
  return (
    <section class="page lab">
      <div class="page-heading">
        <h1>{props.title}</h1>
        <p class="muted">{props.intro}</p>
      </div>
      {lab.catalogueError && <Notice kind="error">{lab.catalogueError}</Notice>}
      <form
        ref={lab.form}
        class="lab-form"
        noValidate
        onSubmit={props.onSubmit}
        // Any control's new value clears its own error at once: an error stays only while its value is the refused one.
        onInput={(event) => settleErrorOf(event, run, true)}
        onChange={(event) => settleErrorOf(event, run, false)}
        aria-describedby={run.errors.form ? formErrorId : undefined}
      >
        <div class="form-grid wide">
          <MarketFields value={lab.market} errors={run.errors.fields} onChange={lab.setMarket} result={run.result} />
        </div>
        {props.templateFields ?? (!lab.catalogueError && <p class="muted">Loading the strategy templates…</p>)}
        <ExecutionFields value={lab.execution} errors={run.errors.fields} onChange={lab.setExecution} />
        <RunActions id={formErrorId} formError={run.errors.form} running={run.running} disabled={props.disabled} {...props.submit} />
      </form>
      <ResultsSection id={`${props.id}-results-heading`} running={run.running} stale={run.stale} result={run.result} status={props.status} empty={props.empty}>
        {props.results && (
          <>
            {lab.asked && props.used && (
              <DataClipNotice
                asked={{ from: lab.asked.start_date, to: lab.asked.end_date }}
                used={{ from: props.used.start_date.slice(0, 10), to: props.used.end_date.slice(0, 10) }}
                symbols={[props.used.symbol]}
              />
            )}
            {props.results}
          </>
        )}
      </ResultsSection>
    </section>
  );
}
