import { useMemo } from 'preact/hooks';
import { formatMoney, formatPercent, formatWholeMoney } from '../ui/format';
import { SeriesChart, type ChartLine } from './series-chart';

const EQUITY_COLOUR = '#1f5fbf';
const DRAWDOWN_COLOUR = '#b42318';
/** Okabe–Ito vermilion: apart from the strategy's blue for the common kinds of colour blindness. */
export const BENCHMARK_COLOUR = '#D55E00';

/** A benchmark's line beside a strategy's: the answer's `benchmark` block (docs/backtesting.md "Benchmark"). */
export interface BenchmarkLine {
  readonly symbol: string;
  readonly total_return: number;
  readonly equity_curve: readonly number[];
}

/** The benchmark's equity as a chart line, named for the legend. */
export function benchmarkLine(benchmark: BenchmarkLine): ChartLine {
  return { name: `Benchmark: ${benchmark.symbol} held`, color: BENCHMARK_COLOUR, values: benchmark.equity_curve };
}

/** The series of one backtest's answer that the charts draw, as the lab's and the library's results both name them. */
export interface EquitySeries {
  readonly dates: readonly string[];
  readonly equity_curve: readonly number[];
  readonly drawdowns: readonly number[];
  readonly final_capital: number;
}

/**
 * One backtest's equity curve and drawdown side by side, each summarised in words, and the charts' credit.
 * `first` and `last` are the period's first and last days as the page shows them. A `benchmark` is drawn beside
 * the equity, with a legend.
 */
export function EquityCharts(props: { result: EquitySeries; startingCapital: number; maxDrawdown: number; first: string; last: string; benchmark?: BenchmarkLine | undefined }) {
  const { result, benchmark } = props;
  const equity = useMemo<ChartLine[]>(
    () => [{ name: 'Strategy', color: EQUITY_COLOUR, values: result.equity_curve }, ...(benchmark ? [benchmarkLine(benchmark)] : [])],
    [result.equity_curve, benchmark],
  );
  const drawdowns = useMemo<ChartLine[]>(() => [{ name: 'Drawdown', color: DRAWDOWN_COLOUR, values: result.drawdowns }], [result.drawdowns]);
  return (
    <>
      <div class="chart-pair">
        <SeriesChart
          class="chart--equity"
          caption="Equity curve"
          summary={
            `Equity at each close, from ${formatMoney(props.startingCapital)} on ${props.first} to ${formatMoney(result.final_capital)} on ${props.last}.` +
            (benchmark ? ` Beside it, ${benchmark.symbol} held with the same capital: ${formatPercent(benchmark.total_return)}.` : '')
          }
          legend={benchmark !== undefined}
          dates={result.dates}
          lines={equity}
          kind="equity"
          formatValue={formatWholeMoney}
        />
        <SeriesChart
          class="chart--drawdown"
          caption="Drawdown"
          summary={`Fall of equity below its running peak at each close; deepest ${formatPercent(props.maxDrawdown)}.`}
          dates={result.dates}
          lines={drawdowns}
          kind="drawdown"
          formatValue={formatPercent}
        />
      </div>
      <ChartCredit />
    </>
  );
}

/** lightweight-charts' licence asks for a visible credit; its own logo is switched off (see series-chart.tsx). */
export function ChartCredit() {
  return (
    <p class="chart-credit muted">
      Charts by <a href="https://www.tradingview.com/lightweight-charts/">TradingView Lightweight Charts</a>.
    </p>
  );
}
