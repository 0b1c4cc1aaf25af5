import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { Link, useLocation } from '../router';
import { BacktestResults } from './backtest-results';
import { formatPercent } from '../ui/format';
import { labPrefill } from './lab-link';
import { LabFormPage, useLabForm } from './lab-form-page';
import { checkMarketInputs, marketRequest, type MarketInputs } from './market-inputs';
import { TemplateFields } from './template-fields';
import { checkParameters, defaultParameterInputs, parameterRequest, type ParameterInputs } from './template-parameters';
import type { BacktestResult, StrategyTemplate } from './types';

/** The backtest lab: one template with its parameters over one symbol and period, and what came of it. */
export function LabPage() {
  const lab = useLabForm<BacktestResult>();
  const { templates, market, run } = lab;
  const [template, setTemplate] = useState<StrategyTemplate | undefined>(undefined);
  const [parameters, setParameters] = useState<ParameterInputs>({});
  const { query } = useLocation();

  // An address naming a backtest (`/?strategy=…`, as the Optimize view's cells link) fills the form and runs it
  // once; otherwise the default is the first template with parameters to play with (SMA crossover), else the first.
  useEffect(() => {
    if (!templates || template) return;
    const asked = labPrefill(query, templates);
    if (asked) {
      setTemplate(asked.template);
      setParameters(asked.parameters);
      lab.setMarket(asked.market);
      void runBacktest(asked.template, asked.parameters, asked.market);
      return;
    }
    const initial = templates.find((candidate) => candidate.parameters.length > 0) ?? templates[0];
    setTemplate(initial);
    setParameters(defaultParameterInputs(initial));
  }, [templates]);

  async function runBacktest(chosen: StrategyTemplate, values: ParameterInputs, inputs: MarketInputs) {
    const found = { ...checkMarketInputs(inputs), ...checkParameters(chosen, values) };
    if (Object.keys(found).length > 0) return run.refuse({ fields: found });
    const strategyParams = parameterRequest(chosen, values);
    const body = { ...marketRequest(inputs), strategy: chosen.id, strategy_params: strategyParams };
    await run.start(
      lab.asking(inputs, () => api.post<BacktestResult>('/api/backtest', body)),
      strategyParams.map((parameter) => parameter.name),
    );
  }

  async function submit(event: Event) {
    event.preventDefault();
    if (!template || run.running) return;
    await runBacktest(template, parameters, market);
  }

  return (
    <LabFormPage
      id="lab"
      title="Backtest lab"
      intro={
        <>
          Run one strategy template over daily bars. To see several templates side by side, <Link href="/compare">compare strategies</Link>.
        </>
      }
      lab={lab}
      onSubmit={submit}
      templateFields={
        templates &&
        template && (
          <TemplateFields
            templates={templates}
            template={template}
            parameters={parameters}
            errors={run.errors.fields}
            onTemplate={(chosen) => {
              setTemplate(chosen);
              setParameters(defaultParameterInputs(chosen));
            }}
            onParameters={setParameters}
          />
        )
      }
      disabled={!template}
      submit={{ idle: 'Run backtest', busy: 'Running…', progress: 'Running backtest' }}
      status={run.running ? 'Running backtest…' : run.result ? `Backtest finished: total return ${formatPercent(run.result.total_return)}.` : ''}
      empty="Choose a template and press “Run backtest”."
      results={run.result && <BacktestResults result={run.result} />}
      used={run.result}
    />
  );
}
