import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { Link } from '../router';
import { Notice } from '../ui/form';
import { CompareResults } from './compare-results';
import { MarketFields } from './market-fields';
import { checkMarketInputs, DEFAULT_MARKET_INPUTS, marketRequest, type MarketInputs } from './market-inputs';
import { ResultsSection, RunActions } from './run-section';
import { TemplateChecklist } from './template-checklist';
import type { ComparisonResult } from './types';
import { useFocusFirstInvalid } from '../ui/use-focus-first-invalid';
import { useRun } from './use-run';
import { useTemplates } from './use-templates';

/** Several templates with their default parameters over one symbol and period, side by side. */
export function ComparePage() {
  const { templates, error: catalogueError } = useTemplates();
  const [market, setMarket] = useState<MarketInputs>(DEFAULT_MARKET_INPUTS);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const run = useRun<ComparisonResult>();
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, run.errors);

  useEffect(() => {
    if (templates) setChosen(new Set(templates.map((template) => template.id)));
  }, [templates]);

  async function submit(event: Event) {
    event.preventDefault();
    if (!templates || run.running) return;
    const found = checkMarketInputs(market);
    if (chosen.size === 0) found.strategies = 'Choose at least one template.';
    if (Object.keys(found).length > 0) return run.refuse({ fields: found });
    // In catalogue order, whatever order they were ticked in, so colours stay put between runs.
    const strategies = templates.filter((template) => chosen.has(template.id)).map((template) => template.id);
    await run.start(() => api.post<ComparisonResult>('/api/compare-strategies', { ...marketRequest(market), strategies }));
  }

  const errors = run.errors.fields;
  return (
    <section class="page lab">
      <div class="page-heading">
        <h1>Compare strategies</h1>
        <p class="muted">
          Run several templates, each with its default parameters, over the same bars. To tune one template's parameters, use the{' '}
          <Link href="/">backtest lab</Link>.
        </p>
      </div>
      {catalogueError && <Notice kind="error">{catalogueError}</Notice>}
      <form ref={form} class="lab-form" noValidate onSubmit={submit} aria-describedby={run.errors.form ? 'compare-form-error' : undefined}>
        <div class="form-grid wide">
          <MarketFields value={market} errors={errors} onChange={setMarket} />
        </div>
        {templates ? (
          <TemplateChecklist templates={templates} chosen={chosen} error={errors.strategies} onChange={setChosen} />
        ) : (
          !catalogueError && <p class="muted">Loading the strategy templates…</p>
        )}
        <RunActions
          id="compare-form-error"
          formError={run.errors.form}
          running={run.running}
          disabled={!templates}
          idle="Compare"
          busy="Comparing…"
          progress="Running comparison"
        />
      </form>
      <ResultsSection
        id="compare-results-heading"
        running={run.running}
        status={run.running ? 'Running comparison…' : run.result ? `Comparison finished: ${run.result.strategies.length} templates.` : ''}
        empty="Choose templates and press “Compare”."
      >
        {run.result && <CompareResults result={run.result} />}
      </ResultsSection>
    </section>
  );
}
