import { useMemo } from 'preact/hooks';
import { Notice } from '../ui/form';
import { formatCount, formatDay, formatMoney, formatPercent, formatWholeMoney, signClass } from '../ui/format';
import { Link, navigate } from '../router';
import { ChartCredit } from './equity-charts';
import { HeatMap } from './heat-map';
import { scaleOf } from './heat-scale';
import type { ExecutionInputs } from './execution-inputs';
import { labHref } from './lab-link';
import type { MarketInputs } from './market-inputs';
import { MetricValue } from './metric-cards';
import { SeriesChart, type ChartLine } from './series-chart';
import { cellGrid, describeParams, type HeatAxis } from './sweep-grid';
import { METRICS, OBJECTIVE_LABELS, formatObjective, noTradeNote, objectiveValue, outOfSampleWarning, thinNote, topCells } from './sweep-objectives';
import type { SweepCell, SweepMetrics, SweepResult, WalkForwardResult } from './sweep-types';
import { parameterLabel } from './template-parameters';

/** A finished sweep with what was asked: the market inputs and the axes sent (a left-out value keeps its place). */
export interface OptimizeRun {
  readonly answer: SweepResult;
  readonly market: MarketInputs;
  /** The execution settings swept with: a cell's link opens the lab with them. */
  readonly execution: ExecutionInputs;
  readonly axes: readonly HeatAxis[];
  readonly templateName: string;
}

const TOP = 10;
const EQUITY_COLOUR = '#1f5fbf';

/** The day before a `YYYY-MM-DD` day: the last in-sample day when bars before `split_date` are in sample. */
function dayBefore(day: string): string {
  const date = new Date(`${formatDay(day)}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

/** The sweep's answer: what was swept, the heat map, the top cells, and the out-of-sample check if one was asked. */
export function SweepResults(props: { run: OptimizeRun }) {
  const { answer, market } = props.run;
  const { parameters, objective } = answer;
  const layout = useMemo(() => cellGrid(parameters, answer.cells, props.run.axes), [answer, props.run.axes]);
  const scale = useMemo(() => scaleOf(answer.cells.map((cell) => objectiveValue(cell, objective))), [answer]);
  const top = useMemo(() => topCells(answer.cells, objective, TOP), [answer]);
  const bestIndex = answer.cells.indexOf(top[0]!);
  const best = layout.grid.flatMap((row, rowIndex) => row.flatMap((index, column) => (index === bestIndex ? [{ row: rowIndex, column }] : [])))[0];
  const thinCount = answer.cells.filter((cell) => cell.thin).length;
  const validation = answer.validation;
  const split = validation && 'split_date' in validation ? validation : undefined;
  // Cells cover the in-sample bars when the last part is held out: the lab reruns a cell over those.
  const period = { start_date: formatDay(answer.start_date), end_date: split ? dayBefore(split.split_date) : formatDay(answer.end_date) };
  const hrefOf = (cell: SweepCell) => labHref({ market: { ...market, ...period }, strategy: answer.strategy, params: cell.params, execution: props.run.execution });

  return (
    <>
      <p class="results__what">
        {formatCount(answer.cells.length)} cells of {props.run.templateName} on <strong>{answer.symbol}</strong>, {period.start_date} to {period.end_date}
        {split && ' (the in-sample part)'}, with {formatMoney(Number(market.initial_capital))} to start
        {answer.skipped_cells > 0 && `; ${formatCount(answer.skipped_cells)} left out because the template does not allow the pair`}. Best by{' '}
        {OBJECTIVE_LABELS[objective].toLowerCase()}: <strong>{describeParams(answer.best.params, parameters)}</strong>,{' '}
        {formatObjective(objective, objectiveValue(answer.best, objective))} (<Link href={hrefOf(answer.best)}>open in the lab</Link>).
        {thinCount > 0 && !answer.best.thin && ` ${formatCount(thinCount)} ${thinCount === 1 ? 'cell' : 'cells'} with fewer than ${formatCount(answer.min_trades)} trades ${thinCount === 1 ? 'is' : 'are'} marked thin and ranked below the rest.`}
      </p>
      {answer.best.thin && (
        <Notice kind="info">
          No cell made at least {formatCount(answer.min_trades)} trades, so every cell is thin: the best of them is shown, but its figures rest on{' '}
          {formatCount(answer.best.total_trades)} {answer.best.total_trades === 1 ? 'trade' : 'trades'}. Lower the minimum trades, or widen the period.
        </Notice>
      )}
      <HeatMap
        layout={layout}
        cells={answer.cells}
        parameters={parameters}
        objective={objective}
        scale={scale}
        best={best}
        minTrades={answer.min_trades}
        onOpen={(cell) => navigate(hrefOf(cell))}
      />
      <TopCellsTable cells={top} parameters={parameters} objective={objective} minTrades={answer.min_trades} hrefOf={hrefOf} />
      {split && (
        <SplitComparison
          splitDate={formatDay(split.split_date)}
          endDate={formatDay(answer.end_date)}
          inSample={split.in_sample}
          outOfSample={split.out_of_sample}
          parameters={parameters}
        />
      )}
      {validation && 'walk_forward' in validation && <WalkForward result={validation.walk_forward} parameters={parameters} capital={Number(market.initial_capital)} />}
    </>
  );
}

function TopCellsTable(props: {
  cells: readonly SweepCell[];
  parameters: readonly string[];
  objective: SweepResult['objective'];
  minTrades: number;
  hrefOf: (cell: SweepCell) => string;
}) {
  return (
    <div class="table-scroll" role="region" aria-labelledby="top-cells-caption" tabIndex={0}>
      <table class="top-cells-table">
        <caption id="top-cells-caption">
          Top {formatCount(props.cells.length)} cells by {OBJECTIVE_LABELS[props.objective].toLowerCase()}
        </caption>
        <thead>
          <tr>
            <th scope="col" class="num">
              Rank
            </th>
            {props.parameters.map((name) => (
              <th key={name} scope="col" class="num">
                {parameterLabel(name)}
              </th>
            ))}
            {METRICS.map((metric) => (
              <th key={metric.key} scope="col" class={`num ${metric.key === props.objective ? 'top-cells-table__objective' : ''}`}>
                {metric.label}
              </th>
            ))}
            <th scope="col">Backtest</th>
          </tr>
        </thead>
        <tbody>
          {props.cells.map((cell, rank) => (
            <tr key={props.parameters.map((name) => cell.params[name]).join('|')} class={cell.thin ? 'top-cells-table__thin' : undefined}>
              <th scope="row" class="num">
                {rank + 1}
                {cell.thin && (
                  <span class="thin-mark" title={thinNote(props.minTrades)}>
                    {' '}
                    thin<span class="visually-hidden">: {thinNote(props.minTrades)}</span>
                  </span>
                )}
              </th>
              {props.parameters.map((name) => (
                <td key={name} class="num">
                  {cell.params[name]}
                </td>
              ))}
              <MetricCells metrics={cell} />
              <td>
                <Link href={props.hrefOf(cell)}>
                  Open<span class="visually-hidden"> {describeParams(cell.params, props.parameters).toLowerCase()}</span> in lab
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MetricCells(props: { metrics: SweepMetrics }) {
  return (
    <>
      {METRICS.map((metric) => (
        <td key={metric.key} class={`num ${metric.key === 'total_return' || metric.key === 'annualized_return' ? signClass(props.metrics[metric.key]) : ''}`}>
          <MetricValue value={metric.format(props.metrics[metric.key])} />
        </td>
      ))}
    </>
  );
}

function SplitComparison(props: { splitDate: string; endDate: string; inSample: SweepCell; outOfSample: SweepMetrics; parameters: readonly string[] }) {
  const warning = outOfSampleWarning(props.inSample, props.outOfSample);
  const noTrade = noTradeNote(props.outOfSample, describeParams(props.inSample.params, props.parameters), props.splitDate, props.endDate);
  return (
    <section class="sweep-split" aria-labelledby="split-heading">
      <h3 id="split-heading">In sample against out of sample</h3>
      <p>
        The best in-sample cell, <strong>{describeParams(props.inSample.params, props.parameters)}</strong>, run again on the bars held out from{' '}
        {props.splitDate} on.
      </p>
      {noTrade ? (
        <Notice kind="info">{noTrade}</Notice>
      ) : warning ? (
        <Notice kind="info">Warning: {warning}</Notice>
      ) : (
        <p class="muted">Out of sample it kept at least half of its in-sample annualized return.</p>
      )}
      <div class="table-scroll" role="region" aria-labelledby="split-caption" tabIndex={0}>
        <table class="split-table">
          <caption id="split-caption">Best in-sample cell: both periods</caption>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col" class="num">
                In sample
              </th>
              <th scope="col" class="num">
                Out of sample
              </th>
            </tr>
          </thead>
          <tbody>
            {METRICS.map((metric) => (
              <tr key={metric.key}>
                <th scope="row">{metric.label}</th>
                <td class="num">
                  <MetricValue value={metric.format(props.inSample[metric.key])} />
                </td>
                <td class="num">
                  <MetricValue value={metric.format(props.outOfSample[metric.key])} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function WalkForward(props: { result: WalkForwardResult; parameters: readonly string[]; capital: number }) {
  const { result } = props;
  const lines = useMemo<ChartLine[]>(() => [{ name: 'Out-of-sample equity', color: EQUITY_COLOUR, values: result.equity_curve }], [result]);
  const dates = useMemo(() => result.dates.map(formatDay), [result]);
  const first = dates[0] ?? '';
  const last = dates[dates.length - 1] ?? '';
  return (
    <section class="sweep-walk-forward" aria-labelledby="walk-forward-heading">
      <h3 id="walk-forward-heading">Walk-forward</h3>
      <p>
        {formatCount(result.windows.length)} windows: each window's best in-sample cell traded on the window's out-of-sample bars, with the equity the last window
        ended on. Out of sample in all: total return <span class={signClass(result.metrics.total_return)}>{formatPercent(result.metrics.total_return)}</span>,{' '}
        {formatPercent(result.metrics.annualized_return)} a year, max drawdown {formatPercent(result.metrics.max_drawdown)}, {formatCount(result.metrics.total_trades)}{' '}
        trades.
      </p>
      <SeriesChart
        class="chart--walk-forward"
        caption="Stitched out-of-sample equity"
        summary={`Equity at each out-of-sample close, from ${formatMoney(props.capital)} on ${first} to ${formatMoney(result.equity_curve[result.equity_curve.length - 1] ?? null)} on ${last}.`}
        dates={dates}
        lines={lines}
        kind="equity"
        formatValue={formatWholeMoney}
      />
      <ChartCredit />
      <div class="table-scroll" role="region" aria-labelledby="windows-caption" tabIndex={0}>
        <table class="windows-table">
          <caption id="windows-caption">Windows</caption>
          <thead>
            <tr>
              <th scope="col" class="num">
                Window
              </th>
              <th scope="col">In sample</th>
              <th scope="col">Out of sample</th>
              <th scope="col">Chosen parameters</th>
              <th scope="col" class="num">
                In-sample return
              </th>
              <th scope="col" class="num">
                Out-of-sample return
              </th>
            </tr>
          </thead>
          <tbody>
            {result.windows.map((window, index) => (
              <tr key={index}>
                <th scope="row" class="num">
                  {index + 1}
                </th>
                <td>
                  {formatDay(window.in_sample.start_date)} to {formatDay(window.in_sample.end_date)}
                </td>
                <td>
                  {formatDay(window.out_of_sample.start_date)} to {formatDay(window.out_of_sample.end_date)}
                </td>
                <td>{describeParams(window.params, props.parameters)}</td>
                <td class={`num ${signClass(window.in_sample.total_return)}`}>{formatPercent(window.in_sample.total_return)}</td>
                <td class={`num ${signClass(window.out_of_sample.total_return)}`}>
                  {formatPercent(window.out_of_sample.total_return)}
                  {window.out_of_sample.total_trades === 0 && <span class="muted"> (no trade)</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <NoTradeWindows windows={result.windows} parameters={props.parameters} />
    </section>
  );
}

/** The walk-forward windows whose out-of-sample run made no trade, each explained in words. */
function NoTradeWindows(props: { windows: WalkForwardResult['windows']; parameters: readonly string[] }) {
  const notes = props.windows.flatMap((window, index) => {
    const side = window.out_of_sample;
    const note = noTradeNote(side, describeParams(window.params, props.parameters), formatDay(side.start_date), formatDay(side.end_date));
    return note ? [{ index, note }] : [];
  });
  if (notes.length === 0) return null;
  return (
    <ul class="sweep-no-trade">
      {notes.map(({ index, note }) => (
        <li key={index}>
          Window {index + 1}: {note}
        </li>
      ))}
    </ul>
  );
}
