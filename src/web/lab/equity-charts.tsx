import { useMemo } from 'preact/hooks';
import { formatMoney, formatPercent, formatWholeMoney } from '../ui/format';
import { SeriesChart, type ChartLine } from './series-chart';

const EQUITY_COLOUR = '#1f5fbf';
const DRAWDOWN_COLOUR = '#b42318';

/**
 * One backtest's equity curve and drawdown side by side, each summarised in words, and the charts' credit.
 * `first` and `last` are the period's first and last days as the page shows them.
 */
export function EquityCharts(props: {
  dates: readonly string[];
  equity: readonly number[];
  drawdowns: readonly number[];
  startingCapital: number;
  finalCapital: number;
  maxDrawdown: number;
  first: string;
  last: string;
}) {
  const equity = useMemo<ChartLine[]>(() => [{ name: 'Equity', color: EQUITY_COLOUR, values: props.equity }], [props.equity]);
  const drawdowns = useMemo<ChartLine[]>(() => [{ name: 'Drawdown', color: DRAWDOWN_COLOUR, values: props.drawdowns }], [props.drawdowns]);
  return (
    <>
      <div class="chart-pair">
        <SeriesChart
          class="chart--equity"
          caption="Equity curve"
          summary={`Equity at each close, from ${formatMoney(props.startingCapital)} on ${props.first} to ${formatMoney(props.finalCapital)} on ${props.last}.`}
          dates={props.dates}
          lines={equity}
          kind="equity"
          formatValue={formatWholeMoney}
        />
        <SeriesChart
          class="chart--drawdown"
          caption="Drawdown"
          summary={`Fall of equity below its running peak at each close; deepest ${formatPercent(props.maxDrawdown)}.`}
          dates={props.dates}
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
