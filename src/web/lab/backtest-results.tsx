import { Notice } from '../ui/form';
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
      {result.unfilled_signals && <Notice kind="info">{result.unfilled_signals.message}</Notice>}
      <MetricCards result={result} />
      <EquityCharts result={result} startingCapital={result.initial_capital} maxDrawdown={result.max_drawdown} first={first} last={last} />
      <h3>Trades</h3>
      <TradesTable trades={result.trades} empty={result.unfilled_signals ? 'No trades: no signal could be filled (see above).' : 'No trades: the strategy never entered over this period.'} />
    </>
  );
}
