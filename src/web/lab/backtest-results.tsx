import { useMemo } from 'preact/hooks';
import { formatCount, formatDay, formatMoney, formatPercent, formatWholeMoney } from './format';
import { MetricCards } from './metric-cards';
import { SeriesChart, type ChartLine } from './series-chart';
import { TradesTable } from './trades-table';
import type { BacktestResult } from './types';

const EQUITY_COLOUR = '#1f5fbf';
const DRAWDOWN_COLOUR = '#b42318';

/** One backtest's answer: what was run, its metrics, its equity and drawdown charts and its trades. */
export function BacktestResults(props: { result: BacktestResult }) {
  const { result } = props;
  const equity = useMemo<ChartLine[]>(() => [{ name: 'Equity', color: EQUITY_COLOUR, values: result.equity_curve }], [result]);
  const drawdowns = useMemo<ChartLine[]>(() => [{ name: 'Drawdown', color: DRAWDOWN_COLOUR, values: result.drawdowns }], [result]);
  const first = formatDay(result.start_date);
  const last = formatDay(result.end_date);
  return (
    <>
      <p class="results__what">
        <strong>{result.strategy_name}</strong> on <strong>{result.symbol}</strong>, {first} to {last} ({formatCount(result.dates.length)} daily
        bars, {result.data_feed === 'sip' ? 'real-time SIP' : 'delayed SIP'} feed)
      </p>
      <MetricCards result={result} />
      <div class="chart-pair">
        <SeriesChart
          class="chart--equity"
          caption="Equity curve"
          summary={`Equity at each close, from ${formatMoney(result.initial_capital)} on ${first} to ${formatMoney(result.final_capital)} on ${last}.`}
          dates={result.dates}
          lines={equity}
          kind="equity"
          formatValue={formatWholeMoney}
        />
        <SeriesChart
          class="chart--drawdown"
          caption="Drawdown"
          summary={`Fall of equity below its running peak at each close; deepest ${formatPercent(result.max_drawdown)}.`}
          dates={result.dates}
          lines={drawdowns}
          kind="drawdown"
          formatValue={formatPercent}
        />
      </div>
      <ChartCredit />
      <h3>Trades</h3>
      <TradesTable trades={result.trades} />
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
