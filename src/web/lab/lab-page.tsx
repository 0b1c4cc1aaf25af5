import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { Link, navigate, useLocation } from '../router';
import { BacktestResults } from './backtest-results';
import { formatPercent } from '../ui/format';
import { checkExecutionInputs, executionRequest, type ExecutionInputs } from './execution-inputs';
import { labHref, labPrefill } from './lab-link';
import { LabFormPage, useLabForm } from './lab-form-page';
import { checkMarketInputs, marketRequest, type MarketInputs } from './market-inputs';
import { TemplateFields } from './template-fields';
import { checkParameters, defaultParameterInputs, parameterRequest, type ParameterInputs } from './template-parameters';
import type { BacktestResult, StrategyTemplate } from './types';

/** The backtest lab: one template with its parameters over one symbol and period, and what came of it. */
export function LabPage() {
  const lab = useLabForm<BacktestResult>();
  const { templates, market, execution, run } = lab;
  const [template, setTemplate] = useState<StrategyTemplate | undefined>(undefined);
  const [parameters, setParameters] = useState<ParameterInputs>({});
  const { query } = useLocation();
  const search = query.toString();
  /** The address of the run whose answer is awaited, then of the one on screen. */
  const sent = useRef<string | undefined>(undefined);
  const shown = useRef<string | undefined>(undefined);
  /** The body of the run on screen: the Monte Carlo check asks with it. */
  const [request, setRequest] = useState<Record<string, unknown> | undefined>(undefined);

  // An address naming a backtest (`/?strategy=…`: a link, a reload, Back or Forward to an earlier run) fills the
  // form and runs it once; otherwise the default is the first template with parameters to play with (SMA
  // crossover), else the first. An address that is the run on screen (written after it, below) runs nothing.
  useEffect(() => {
    if (!templates || `/?${search}` === shown.current) return;
    const asked = labPrefill(query, templates);
    if (asked) {
      setTemplate(asked.template);
      setParameters(asked.parameters);
      lab.setMarket(asked.market);
      lab.setExecution(asked.execution);
      void runBacktest(asked.template, asked.parameters, asked.market, asked.execution);
      return;
    }
    if (template) return;
    const initial = templates.find((candidate) => candidate.parameters.length > 0) ?? templates[0];
    setTemplate(initial);
    setParameters(defaultParameterInputs(initial));
  }, [templates, search]);

  // After every answer the address carries the run's settings, a new history entry each: a link or a reload
  // reproduces it, and Back returns to the one before.
  useEffect(() => {
    if (!run.result || !sent.current) return;
    shown.current = sent.current;
    sent.current = undefined;
    navigate(shown.current, { keepScroll: true });
  }, [run.result]);

  async function runBacktest(chosen: StrategyTemplate, values: ParameterInputs, inputs: MarketInputs, settings: ExecutionInputs) {
    const found = { ...checkMarketInputs(inputs), ...checkParameters(chosen, values), ...checkExecutionInputs(settings) };
    if (Object.keys(found).length > 0) return run.refuse({ fields: found });
    const strategyParams = parameterRequest(chosen, values);
    // Every run asks for its report (DESIGN "The backtest report and Monte Carlo"): the Report tab shows it at once.
    const body = { ...marketRequest(inputs), strategy: chosen.id, strategy_params: strategyParams, ...executionRequest(settings, inputs.symbol), report: true };
    const href = labHref({ market: inputs, strategy: chosen.id, params: Object.fromEntries(strategyParams.map((p) => [p.name, p.value])), execution: settings });
    await run.start(
      lab.asking(inputs, async () => {
        const answer = await api.post<BacktestResult>('/api/backtest', body);
        sent.current = href;
        setRequest(body);
        return answer;
      }),
      strategyParams.map((parameter) => parameter.name),
    );
  }

  async function submit(event: Event) {
    event.preventDefault();
    if (!template || run.running) return;
    await runBacktest(template, parameters, market, execution);
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
      results={run.result && <BacktestResults result={run.result} request={request} />}
      used={run.result}
    />
  );
}
