import { useMemo, useState } from 'preact/hooks';
import { Notice } from '../ui/form';
import { formatCount, formatDay } from '../ui/format';
import { EquityCharts } from './equity-charts';
import { costsSentence, sizingSentence } from './execution-words';
import { PerformanceSummary } from './performance-summary';
import { PriceChart } from './price-chart';
import { roundTrips, tradeSummary } from './round-trips';
import { RoundTripsTable } from './round-trips-table';
import { TradesTable } from './trades-table';
import type { BacktestResult } from './types';

/**
 * One backtest's answer: what was run and at what costs, its performance summary, its equity (beside the
 * benchmark's) and drawdown, the price with the fills marked, and its round trips, the raw fills behind a toggle.
 */
export function BacktestResults(props: { result: BacktestResult }) {
  const { result } = props;
  const first = formatDay(result.start_date);
  const last = formatDay(result.end_date);
  const trips = useMemo(() => roundTrips(result.trades, result.dates), [result]);
  const summary = useMemo(() => tradeSummary(result, trips), [result, trips]);
  const [showFills, setShowFills] = useState(false);
  const noTrades = result.unfilled_signals && result.trades.length === 0 ? 'No trades: no signal could be filled (see above).' : 'No trades: the strategy never entered over this period.';
  return (
    <>
      <p class="results__what">
        <strong>{result.strategy_name}</strong> on <strong>{result.symbol}</strong>, {first} to {last} ({formatCount(result.dates.length)} daily
        bars, {result.data_feed === 'sip' ? 'real-time SIP' : 'delayed SIP'} feed)
      </p>
      <p class="results__costs">
        <strong>{costsSentence(result)}</strong> {sizingSentence(result)}
      </p>
      {result.unfilled_signals && <Notice kind="info">{result.unfilled_signals.message}</Notice>}
      <PerformanceSummary result={result} trades={summary} />
      <EquityCharts result={result} startingCapital={result.initial_capital} maxDrawdown={result.max_drawdown} first={first} last={last} benchmark={result.benchmark} />
      <PriceChart symbol={result.symbol} startDate={first} endDate={last} trades={result.trades} />
      <h3>Trades</h3>
      <RoundTripsTable trips={trips} empty={noTrades} />
      <p>
        <button type="button" class="link-button" aria-expanded={showFills} aria-controls="lab-fills" onClick={() => setShowFills(!showFills)}>
          {showFills ? 'Hide the fills' : `Show the fills (${formatCount(result.trades.length)} buys and sells)`}
        </button>
      </p>
      <div id="lab-fills">{showFills && <TradesTable trades={result.trades} empty="No fills." />}</div>
    </>
  );
}
