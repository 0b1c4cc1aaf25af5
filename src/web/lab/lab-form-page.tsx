import type { ComponentChildren, RefObject } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { Notice } from '../ui/form';
import { useFocusFirstInvalid } from '../ui/use-focus-first-invalid';
import { MarketFields } from './market-fields';
import { DEFAULT_MARKET_INPUTS, type MarketInputs } from './market-inputs';
import { ResultsSection, RunActions } from './run-section';
import type { StrategyTemplate } from './types';
import { useRun, type Run } from './use-run';
import { useTemplates } from './use-templates';

/** What the lab and the comparison both hold: the template catalogue, the market inputs, the run and the form. */
export interface LabForm<R> {
  readonly templates: readonly StrategyTemplate[] | undefined;
  readonly catalogueError: string | undefined;
  readonly market: MarketInputs;
  readonly setMarket: (next: MarketInputs) => void;
  readonly run: Run<R>;
  readonly form: RefObject<HTMLFormElement | null>;
}

/** The state of a lab form; after a refused run, focus goes to its first invalid control. */
export function useLabForm<R>(): LabForm<R> {
  const { templates, error: catalogueError } = useTemplates();
  const [market, setMarket] = useState<MarketInputs>(DEFAULT_MARKET_INPUTS);
  const run = useRun<R>();
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, run.errors);
  return { templates, catalogueError, market, setMarket, run, form };
}

/**
 * A lab page: heading and introduction, the form (market fields, then the page's template fields, the submit
 * row) and the results. `id` prefixes the ids of the form's error (`{id}-form-error`) and of the results heading.
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
      <form ref={lab.form} class="lab-form" noValidate onSubmit={props.onSubmit} aria-describedby={run.errors.form ? formErrorId : undefined}>
        <div class="form-grid wide">
          <MarketFields value={lab.market} errors={run.errors.fields} onChange={lab.setMarket} />
        </div>
        {props.templateFields ?? (!lab.catalogueError && <p class="muted">Loading the strategy templates…</p>)}
        <RunActions id={formErrorId} formError={run.errors.form} running={run.running} disabled={props.disabled} {...props.submit} />
      </form>
      <ResultsSection id={`${props.id}-results-heading`} running={run.running} status={props.status} empty={props.empty}>
        {props.results}
      </ResultsSection>
    </section>
  );
}
