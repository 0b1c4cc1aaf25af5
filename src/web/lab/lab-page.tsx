import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { Link } from '../router';
import { Notice } from '../ui/form';
import { BacktestResults } from './backtest-results';
import { formatPercent } from './format';
import { MarketFields } from './market-fields';
import { checkMarketInputs, DEFAULT_MARKET_INPUTS, marketRequest, type MarketInputs } from './market-inputs';
import { RunProgress } from './run-progress';
import { TemplateFields } from './template-fields';
import { checkParameters, defaultParameterInputs, parameterRequest, type ParameterInputs } from './template-parameters';
import type { BacktestResult, StrategyTemplate } from './types';
import { useFocusFirstInvalid } from '../ui/use-focus-first-invalid';
import { useRun } from './use-run';
import { useTemplates } from './use-templates';

/** The backtest lab: one template with its parameters over one symbol and period, and what came of it. */
export function LabPage() {
  const { templates, error: catalogueError } = useTemplates();
  const [market, setMarket] = useState<MarketInputs>(DEFAULT_MARKET_INPUTS);
  const [template, setTemplate] = useState<StrategyTemplate | undefined>(undefined);
  const [parameters, setParameters] = useState<ParameterInputs>({});
  const run = useRun<BacktestResult>();
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, run.errors);

  // The default is the first template with parameters to play with (SMA crossover), else the first.
  useEffect(() => {
    if (!templates || template) return;
    const initial = templates.find((candidate) => candidate.parameters.length > 0) ?? templates[0];
    setTemplate(initial);
    setParameters(defaultParameterInputs(initial));
  }, [templates]);

  async function submit(event: Event) {
    event.preventDefault();
    if (!template || run.running) return;
    const found = { ...checkMarketInputs(market), ...checkParameters(template, parameters) };
    if (Object.keys(found).length > 0) return run.refuse({ fields: found });
    const strategyParams = parameterRequest(template, parameters);
    const body = { ...marketRequest(market), strategy: template.id, strategy_params: strategyParams };
    await run.start(
      () => api.post<BacktestResult>('/api/backtest', body),
      strategyParams.map((parameter) => parameter.name),
    );
  }

  const errors = run.errors.fields;
  return (
    <section class="page lab">
      <div class="page-heading">
        <h1>Backtest lab</h1>
        <p class="muted">
          Run one strategy template over daily bars. To see several templates side by side, <Link href="/compare">compare strategies</Link>.
        </p>
      </div>
      {catalogueError && <Notice kind="error">{catalogueError}</Notice>}
      <form ref={form} class="lab-form" noValidate onSubmit={submit} aria-describedby={run.errors.form ? 'lab-form-error' : undefined}>
        <div class="form-grid wide">
          <MarketFields value={market} errors={errors} onChange={setMarket} />
        </div>
        {templates && template ? (
          <TemplateFields
            templates={templates}
            template={template}
            parameters={parameters}
            errors={errors}
            onTemplate={(chosen) => {
              setTemplate(chosen);
              setParameters(defaultParameterInputs(chosen));
            }}
            onParameters={setParameters}
          />
        ) : (
          !catalogueError && <p class="muted">Loading the strategy templates…</p>
        )}
        {run.errors.form && (
          <div id="lab-form-error">
            <Notice kind="error">{run.errors.form}</Notice>
          </div>
        )}
        <div class="actions">
          <button type="submit" disabled={run.running || !template}>
            {run.running ? 'Running…' : 'Run backtest'}
          </button>
          {run.running && <RunProgress label="Running backtest" />}
        </div>
      </form>
      <section class="results" aria-labelledby="lab-results-heading" aria-busy={run.running}>
        <h2 id="lab-results-heading">Results</h2>
        <p class="visually-hidden" role="status">
          {run.running ? 'Running backtest…' : run.result ? `Backtest finished: total return ${formatPercent(run.result.total_return)}.` : ''}
        </p>
        {run.result ? (
          <div class={run.running ? 'results__body results__body--stale' : 'results__body'}>
            <BacktestResults result={run.result} />
          </div>
        ) : (
          !run.running && <p class="muted">Choose a template and press “Run backtest”.</p>
        )}
      </section>
    </section>
  );
}
