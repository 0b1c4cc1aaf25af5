import { useMemo, useState } from 'preact/hooks';
import { MonteCarloPanel } from '../report/monte-carlo-panel';
import { ExportActions, RunHeader, type RunDescription } from '../report/export-actions';
import { ReportView } from '../report/report-view';
import { labTradesCsv } from '../report/trades-csv';
import { usePrint } from '../report/use-print';
import { Notice } from '../ui/form';
import { formatCount, formatDay } from '../ui/format';
import { Tabs } from '../ui/tabs';
import { EquityCharts } from './equity-charts';
import { costsSentence, sizingSentence } from './execution-words';
import { PerformanceSummary } from './performance-summary';
import { PriceChart } from './price-chart';
import { roundTrips, tradeSummary, type RoundTrip } from './round-trips';
import { RoundTripsTable } from './round-trips-table';
import { TradesTable } from './trades-table';
import type { BacktestResult } from './types';

/**
 * One backtest's answer: what was run and at what costs, the exports, and three tabs: the summary (performance
 * figures, equity beside the benchmark's and drawdown, the price with the fills marked, the round trips with the raw
 * fills behind a toggle), the report, and the Monte Carlo check of `request`, the body the backtest was asked with.
 */
export function BacktestResults(props: { result: BacktestResult; request?: Readonly<Record<string, unknown>> | undefined }) {
  const { result, request } = props;
  const first = formatDay(result.start_date);
  const last = formatDay(result.end_date);
  const trips = useMemo(() => roundTrips(result.trades, result.dates), [result]);
  const [tab, setTab] = useState('summary');
  const { printing, print } = usePrint();
  const run: RunDescription = { what: `${result.symbol} ${result.strategy_name}`, start: first, end: last };
  return (
    <>
      <RunHeader symbols={[result.symbol]}>
        <p class="results__what">
          <strong>{result.strategy_name}</strong> on <strong>{result.symbol}</strong>, {first} to {last} ({formatCount(result.dates.length)} daily
          bars, {result.data_feed === 'sip' ? 'real-time SIP' : 'delayed SIP'} feed)
        </p>
        <p class="results__costs">
          <strong>{costsSentence(result)}</strong> {sizingSentence(result)}
        </p>
      </RunHeader>
      <ExportActions run={run} trades={() => labTradesCsv(trips)} equity={result} onPrint={print} />
      <Tabs
        label="Backtest result"
        chosen={tab}
        onChoose={setTab}
        showAll={printing}
        tabs={[
          { key: 'summary', label: 'Summary', panel: <Summary result={result} trips={trips} first={first} last={last} /> },
          { key: 'report', label: 'Report', panel: result.report ? <ReportView report={result.report} /> : <p class="muted">This answer carries no report.</p> },
          {
            key: 'monte-carlo',
            label: 'Monte Carlo',
            panel:
              result.total_trades === 0 ? (
                <p class="muted">No closed trade to resample: the Monte Carlo check needs at least one.</p>
              ) : request ? (
                <MonteCarloPanel key={JSON.stringify(request)} request={request} />
              ) : (
                <p class="muted">Run the backtest to check it.</p>
              ),
          },
        ]}
      />
    </>
  );
}

function Summary(props: { result: BacktestResult; trips: readonly RoundTrip[]; first: string; last: string }) {
  const { result, trips, first, last } = props;
  const summary = useMemo(() => tradeSummary(result, trips), [result, trips]);
  const [showFills, setShowFills] = useState(false);
  const noTrades = result.unfilled_signals && result.trades.length === 0 ? 'No trades: no signal could be filled (see above).' : 'No trades: the strategy never entered over this period.';
  return (
    <>
      {result.unfilled_signals && <Notice kind="info">{result.unfilled_signals.message}</Notice>}
      <PerformanceSummary result={result} trades={summary} />
      <EquityCharts result={result} startingCapital={result.initial_capital} maxDrawdown={result.max_drawdown} first={first} last={last} benchmark={result.benchmark} />
      <PriceChart symbol={result.symbol} startDate={first} endDate={last} trades={result.trades} />
      <h3 class="print-break">Trades</h3>
      <RoundTripsTable trips={trips} empty={noTrades} />
      <p class="fills-toggle">
        <button type="button" class="link-button" aria-expanded={showFills} aria-controls="lab-fills" onClick={() => setShowFills(!showFills)}>
          {showFills ? 'Hide the fills' : `Show the fills (${formatCount(result.trades.length)} buys and sells)`}
        </button>
      </p>
      <div id="lab-fills">{showFills && <TradesTable trades={result.trades} empty="No fills." />}</div>
    </>
  );
}
