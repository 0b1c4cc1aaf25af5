import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { Link } from '../router';
import { Notice } from '../ui/form';
import { CompareResults } from './compare-results';
import { MarketFields } from './market-fields';
import { checkMarketInputs, DEFAULT_MARKET_INPUTS, marketRequest, type MarketInputs } from './market-inputs';
import { RunProgress } from './run-progress';
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
      <form ref={form} class="lab-form" noValidate onSubmit={submit}>
        <div class="form-grid wide">
          <MarketFields value={market} errors={errors} onChange={setMarket} />
        </div>
        {templates ? (
          <TemplateChecklist templates={templates} chosen={chosen} error={errors.strategies} onChange={setChosen} />
        ) : (
          !catalogueError && <p class="muted">Loading the strategy templates…</p>
        )}
        {run.errors.form && <Notice kind="error">{run.errors.form}</Notice>}
        <div class="actions">
          <button type="submit" disabled={run.running || !templates}>
            {run.running ? 'Comparing…' : 'Compare'}
          </button>
          {run.running && <RunProgress label="Running comparison" />}
        </div>
      </form>
      <section class="results" aria-labelledby="compare-results-heading" aria-busy={run.running}>
        <h2 id="compare-results-heading">Results</h2>
        <p class="visually-hidden" role="status">
          {run.running ? 'Running comparison…' : run.result ? `Comparison finished: ${run.result.strategies.length} templates.` : ''}
        </p>
        {run.result ? (
          <div class={run.running ? 'results__body results__body--stale' : 'results__body'}>
            <CompareResults result={run.result} />
          </div>
        ) : (
          !run.running && <p class="muted">Choose templates and press “Compare”.</p>
        )}
      </section>
    </section>
  );
}
