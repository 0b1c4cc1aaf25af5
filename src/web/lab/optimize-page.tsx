import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { Link } from '../router';
import { SelectField } from '../ui/form';
import { formatCount } from '../ui/format';
import { LabFormPage, useLabForm } from './lab-form-page';
import { checkExecutionInputs, executionRequest } from './execution-inputs';
import { checkMarketInputs, marketRequest } from './market-inputs';
import { GridFields, MinTradesField, ObjectiveField } from './sweep-fields';
import { axisValues, checkAxes, defaultAxis, gridRequest, type AxisInputs } from './sweep-grid';
import { DEFAULT_MIN_TRADES, DEFAULT_VALIDATION, checkMinTrades, checkValidation, sweepFormErrors, validationRequest, type ValidationInputs } from './sweep-inputs';
import { OBJECTIVE_LABELS } from './sweep-objectives';
import { SweepResults, type OptimizeRun } from './sweep-results';
import type { Objective, SweepRequest, SweepResult } from './sweep-types';
import type { StrategyTemplate } from './types';
import { ValidationFields } from './validation-fields';

/** The first two parameters of a template, each over about ten values of its range. */
function defaultAxes(template: StrategyTemplate): AxisInputs[] {
  return template.parameters.slice(0, 2).map(defaultAxis);
}

/** One template over a grid of one or two of its parameters: a heat map of the objective, the top cells, and an out-of-sample check. */
export function OptimizePage() {
  const lab = useLabForm<OptimizeRun>();
  const { templates, market, execution, run } = lab;
  const [template, setTemplate] = useState<StrategyTemplate | undefined>(undefined);
  const [axes, setAxes] = useState<readonly AxisInputs[]>([]);
  const [objective, setObjective] = useState<Objective>('sharpe_ratio');
  const [minTrades, setMinTrades] = useState(DEFAULT_MIN_TRADES);
  const [validation, setValidation] = useState<ValidationInputs>(DEFAULT_VALIDATION);

  useEffect(() => {
    if (!templates || template) return;
    const initial = templates.find((candidate) => candidate.parameters.length > 1) ?? templates[0];
    if (!initial) return;
    setTemplate(initial);
    setAxes(defaultAxes(initial));
  }, [templates]);

  async function submit(event: Event) {
    event.preventDefault();
    if (!template || run.running) return;
    const found = { ...checkMarketInputs(market), ...checkAxes(template, axes), ...checkMinTrades(minTrades), ...checkValidation(validation, market), ...checkExecutionInputs(execution) };
    if (axes.length === 0) found.grid = 'This template has no parameters to vary.';
    if (Object.keys(found).length > 0) return run.refuse({ fields: found });
    const requested = { ...market };
    const settings = { ...execution };
    const sentAxes = axes.map((axis) => ({ name: axis.name, values: axisValues(Number(axis.min), Number(axis.max), Number(axis.step)) }));
    const body: SweepRequest = { ...marketRequest(market), strategy: template.id, grid: gridRequest(axes), objective, min_trades: Number(minTrades), ...optional(validationRequest(validation)), ...executionRequest(execution, market.symbol) };
    const name = template.name;
    await run.startWith(
      lab.asking(requested, async () => ({ answer: await api.post<SweepResult>('/api/backtest/sweep', body), market: requested, execution: settings, axes: sentAxes, templateName: name })),
      sweepFormErrors,
    );
  }

  const result = run.result;
  return (
    <LabFormPage
      id="optimize"
      title="Optimize a strategy"
      intro={
        <>
          Sweep one template over a grid of one or two of its parameters and see where it works; the other parameters keep their defaults. Click a cell to open
          its backtest in the <Link href="/">backtest lab</Link>.
        </>
      }
      lab={lab}
      onSubmit={submit}
      templateFields={
        templates &&
        template && (
          <>
            <div class="form-grid wide">
              <SelectField
                label="Strategy template"
                name="strategy"
                error={run.errors.fields.strategy}
                hint={template.description}
                value={template.id}
                choices={templates.filter((candidate) => candidate.parameters.length > 0).map((candidate) => ({ value: candidate.id, label: candidate.name }))}
                onChange={(id) => {
                  const chosen = templates.find((candidate) => candidate.id === id);
                  if (!chosen) return;
                  setTemplate(chosen);
                  setAxes(defaultAxes(chosen));
                }}
              />
              <ObjectiveField value={objective} error={run.errors.fields.objective} onChange={setObjective} />
              <MinTradesField value={minTrades} error={run.errors.fields.min_trades} onChange={setMinTrades} />
            </div>
            <GridFields template={template} axes={axes} errors={run.errors.fields} onAxes={setAxes} />
            <ValidationFields value={validation} errors={run.errors.fields} onChange={setValidation} />
          </>
        )
      }
      disabled={!template}
      submit={{ idle: 'Run sweep', busy: 'Sweeping…', progress: 'Running sweep' }}
      status={
        run.running
          ? 'Running sweep…'
          : result
            ? `Sweep finished: ${formatCount(result.answer.cells.length)} cells; best by ${OBJECTIVE_LABELS[result.answer.objective].toLowerCase()} is the outlined cell.`
            : ''
      }
      empty="Choose a template, the parameters to vary and press “Run sweep”."
      results={result && <SweepResults run={result} />}
      used={result?.answer}
    />
  );
}

function optional<T>(validation: T | undefined): { validation?: T } {
  return validation === undefined ? {} : { validation };
}
