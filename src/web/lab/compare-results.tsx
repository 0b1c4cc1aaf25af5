import { useMemo } from 'preact/hooks';
import { benchmarkLine, BENCHMARK_COLOUR, ChartCredit } from './equity-charts';
import { costsSentence, sizingSentence } from './execution-words';
import { formatCount, formatDay, formatDays, formatMoney, formatPercent, formatRatio, formatWholeMoney, signClass } from '../ui/format';
import { MetricValue } from './metric-cards';
import { ScrollRegion } from '../ui/scroll-region';
import { SeriesChart, type ChartLine } from './series-chart';
import type { ComparisonResult } from './types';

/** Okabe–Ito colours: distinct for the common kinds of colour blindness, and dark enough on white. */
const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#8c564b'];

export function colourOf(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}

/** Several templates over the same bars: their equity curves on one chart, with a legend, and their metrics. */
export function CompareResults(props: { result: ComparisonResult }) {
  const { result } = props;
  const lines = useMemo<ChartLine[]>(
    () => [
      ...result.strategies.map((entry, index) => ({ name: entry.name, color: colourOf(index), values: entry.equity_curve })),
      ...(result.benchmark ? [benchmarkLine(result.benchmark)] : []),
    ],
    [result],
  );
  const first = formatDay(result.start_date);
  const last = formatDay(result.end_date);
  const best = [...result.strategies].sort((a, b) => b.total_return - a.total_return)[0];
  return (
    <>
      <p class="results__what">
        {formatCount(result.strategies.length)} templates on <strong>{result.symbol}</strong>, {first} to {last} ({formatCount(result.dates.length)} daily
        bars), each with its default parameters and {formatMoney(result.initial_capital)} to start.
      </p>
      <p class="results__costs">
        <strong>{costsSentence(result)}</strong> {sizingSentence(result)}
      </p>
      <SeriesChart
        class="chart--compare"
        caption="Equity curves"
        summary={
          (best ? `Equity of each template at each close; the highest total return is ${best.name}'s, ${formatPercent(best.total_return)}.` : 'No templates.') +
          (result.benchmark ? ` Beside them, ${result.benchmark.symbol} held with the same capital: ${formatPercent(result.benchmark.total_return)}.` : '')
        }
        dates={result.dates}
        lines={lines}
        kind="equity"
        formatValue={formatWholeMoney}
      />
      <ul class="legend" aria-label="Legend">
        {result.strategies.map((entry, index) => (
          <li key={entry.id}>
            <span class="legend__swatch" style={{ backgroundColor: colourOf(index) }} aria-hidden="true" />
            {entry.name} <span class={signClass(entry.total_return)}>{formatPercent(entry.total_return)}</span>
          </li>
        ))}
        {result.benchmark && (
          <li>
            <span class="legend__swatch" style={{ backgroundColor: BENCHMARK_COLOUR }} aria-hidden="true" />
            {benchmarkLine(result.benchmark).name} <span class={signClass(result.benchmark.total_return)}>{formatPercent(result.benchmark.total_return)}</span>
          </li>
        )}
      </ul>
      <ChartCredit />
      <ComparisonTable result={result} />
    </>
  );
}

const COLUMNS: readonly { label: string; value: (entry: ComparisonResult['strategies'][number]) => string; signed?: keyof ComparisonResult['strategies'][number] }[] = [
  { label: 'Total return', value: (e) => formatPercent(e.total_return), signed: 'total_return' },
  { label: 'Annualized', value: (e) => formatPercent(e.annualized_return), signed: 'annualized_return' },
  { label: 'Sharpe', value: (e) => formatRatio(e.sharpe_ratio) },
  { label: 'Max drawdown', value: (e) => formatPercent(e.max_drawdown) },
  { label: 'Win rate', value: (e) => formatPercent(e.win_rate) },
  { label: 'Profit factor', value: (e) => formatRatio(e.profit_factor) },
  { label: 'Trades', value: (e) => formatCount(e.total_trades) },
  { label: 'Won / lost', value: (e) => `${formatCount(e.winning_trades)} / ${formatCount(e.losing_trades)}` },
  { label: 'Avg profit', value: (e) => formatMoney(e.avg_profit) },
  { label: 'Avg loss', value: (e) => formatMoney(e.avg_loss) },
  { label: 'Avg holding', value: (e) => formatDays(e.avg_holding_days) },
  // Commission and slippage together, to the cent: the comparison's one column of costs (the lab splits them).
  { label: 'Costs paid', value: (e) => formatMoney(e.costs_paid ? Math.round((e.costs_paid.commission + e.costs_paid.slippage) * 100) / 100 : 0) },
];

function ComparisonTable(props: { result: ComparisonResult }) {
  return (
    <ScrollRegion labelledBy="comparison-caption">
      <table class="comparison-table">
        <caption id="comparison-caption">Metrics by template</caption>
        <thead>
          <tr>
            <th scope="col">Template</th>
            {COLUMNS.map((column) => (
              <th key={column.label} scope="col" class="num">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.result.strategies.map((entry, index) => (
            <tr key={entry.id}>
              <th scope="row">
                <span class="legend__swatch" style={{ backgroundColor: colourOf(index) }} aria-hidden="true" />
                {entry.name}
              </th>
              {COLUMNS.map((column) => (
                <td key={column.label} class={`num ${column.signed ? signClass(entry[column.signed] as number | null) : ''}`}>
                  <MetricValue value={column.value(entry)} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
