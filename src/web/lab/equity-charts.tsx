import { useMemo } from 'preact/hooks';
import { formatMoney, formatPercent, formatWholeMoney } from '../ui/format';
import { SeriesChart, type ChartLine } from './series-chart';

const EQUITY_COLOUR = '#1f5fbf';
const DRAWDOWN_COLOUR = '#b42318';

/** The series of one backtest's answer that the charts draw, as the lab's and the library's results both name them. */
export interface EquitySeries {
  readonly dates: readonly string[];
  readonly equity_curve: readonly number[];
  readonly drawdowns: readonly number[];
  readonly final_capital: number;
}

/**
 * One backtest's equity curve and drawdown side by side, each summarised in words, and the charts' credit.
 * `first` and `last` are the period's first and last days as the page shows them.
 */
export function EquityCharts(props: { result: EquitySeries; startingCapital: number; maxDrawdown: number; first: string; last: string }) {
  const { result } = props;
  const equity = useMemo<ChartLine[]>(() => [{ name: 'Equity', color: EQUITY_COLOUR, values: result.equity_curve }], [result.equity_curve]);
  const drawdowns = useMemo<ChartLine[]>(() => [{ name: 'Drawdown', color: DRAWDOWN_COLOUR, values: result.drawdowns }], [result.drawdowns]);
  return (
    <>
      <div class="chart-pair">
        <SeriesChart
          class="chart--equity"
          caption="Equity curve"
          summary={`Equity at each close, from ${formatMoney(props.startingCapital)} on ${props.first} to ${formatMoney(result.final_capital)} on ${props.last}.`}
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
