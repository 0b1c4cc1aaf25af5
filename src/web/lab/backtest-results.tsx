import { formatCount, formatDay } from '../ui/format';
import { EquityCharts } from './equity-charts';
import { MetricCards } from './metric-cards';
import { TradesTable } from './trades-table';
import type { BacktestResult } from './types';

/** One backtest's answer: what was run, its metrics, its equity and drawdown charts and its trades. */
export function BacktestResults(props: { result: BacktestResult }) {
  const { result } = props;
  const first = formatDay(result.start_date);
  const last = formatDay(result.end_date);
  return (
    <>
      <p class="results__what">
        <strong>{result.strategy_name}</strong> on <strong>{result.symbol}</strong>, {first} to {last} ({formatCount(result.dates.length)} daily
        bars, {result.data_feed === 'sip' ? 'real-time SIP' : 'delayed SIP'} feed)
      </p>
      <MetricCards result={result} />
      <EquityCharts result={result} startingCapital={result.initial_capital} maxDrawdown={result.max_drawdown} first={first} last={last} />
      <h3>Trades</h3>
      <TradesTable trades={result.trades} />
    </>
  );
}
