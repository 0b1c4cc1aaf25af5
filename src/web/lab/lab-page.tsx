import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { Link } from '../router';
import { Notice } from '../ui/form';
import { BacktestResults } from './backtest-results';
import { formatPercent } from '../ui/format';
import { MarketFields } from './market-fields';
import { checkMarketInputs, DEFAULT_MARKET_INPUTS, marketRequest, type MarketInputs } from './market-inputs';
import { ResultsSection, RunActions } from './run-section';
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
        <RunActions
          id="lab-form-error"
          formError={run.errors.form}
          running={run.running}
          disabled={!template}
          idle="Run backtest"
          busy="Running…"
          progress="Running backtest"
        />
      </form>
      <ResultsSection
        id="lab-results-heading"
        running={run.running}
        status={run.running ? 'Running backtest…' : run.result ? `Backtest finished: total return ${formatPercent(run.result.total_return)}.` : ''}
        empty="Choose a template and press “Run backtest”."
      >
        {run.result && <BacktestResults result={run.result} />}
      </ResultsSection>
    </section>
  );
}
