import { useMemo, useState } from 'preact/hooks';
import { EquityCharts } from '../lab/equity-charts';
import { costsSentence, sizingSentence } from '../lab/execution-words';
import type { BacktestResult } from '../lab/types';
import { ExportActions, RunHeader, type RunDescription } from '../report/export-actions';
import type { BacktestReport } from '../report/report-types';
import { ReportView } from '../report/report-view';
import { libraryTradesCsv, optionsTradesCsv } from '../report/trades-csv';
import { usePrint } from '../report/use-print';
import { Tabs } from '../ui/tabs';
import { formatCount, formatDays, formatMoney, formatPercent, formatRatio, signClass } from '../ui/format';
import { MetricCardList, MetricValue, roundTripMetrics, type Metric } from '../lab/metric-cards';
import { LibraryTradesTable } from './library-trades-table';
import { OptionsNotes } from './options-notes';
import { OptionsTradesTable } from './options-trades-table';
import { contractCommissionSentence, isOptionsResult } from './options-words';
import { statsBySymbol } from './symbol-stats';
import type { BacktestAnswer, LibraryBacktestResult, LibraryStats, StrategyView } from './types';

function metricsOf(stats: LibraryStats, result: BacktestAnswer): Metric[] {
  return [
    { label: 'Total return', value: formatPercent(stats.total_return), tone: signClass(stats.total_return), explanation: 'Final capital ÷ starting capital − 1.' },
    { label: 'Annualized return', value: formatPercent(stats.annualized_return), tone: signClass(stats.annualized_return), explanation: 'The yearly rate that compounds to the total return.' },
    { label: 'Sharpe ratio', value: formatRatio(stats.sharpe_ratio), explanation: 'Mean ÷ standard deviation of daily returns × √252 (risk-free rate 0).' },
    { label: 'Sortino ratio', value: formatRatio(stats.sortino_ratio), explanation: 'Like Sharpe, counting only the downside deviation.' },
    { label: 'Max drawdown', value: formatPercent(stats.max_drawdown), tone: signClass(stats.max_drawdown), explanation: 'The deepest fall of equity below its running peak.' },
    { label: 'Exposure', value: formatPercent(stats.exposure), explanation: 'Share of the days that closed with a position held.' },
    ...roundTripMetrics(stats),
    { label: 'Avg holding', value: formatDays(stats.avg_holding_days), explanation: 'Mean calendar days from entry to exit.' },
    { label: 'Final capital', value: formatMoney(result.final_capital), explanation: `Equity on the last bar, from ${formatMoney(result.starting_capital)}.` },
  ];
}

/** A library answer asked with `report: true` and execution settings (their echo and the benchmark): an equity replay's or an options replay's. */
export type ReportedLibraryBacktest = BacktestAnswer & Pick<BacktestResult, 'costs' | 'sizing' | 'exits' | 'benchmark'> & { readonly report?: BacktestReport };

/**
 * A library backtest's answer: what ran (for an options replay, that its prices are modeled and why entries were
 * skipped), the exports, and two tabs: the summary (stats, equity and drawdown charts (the lab's), then per-symbol
 * stats and the trades, an options replay's positions with their legs) and the report.
 */
export function LibraryResults(props: { result: ReportedLibraryBacktest; strategy: StrategyView }) {
  const { result, strategy } = props;
  const [tab, setTab] = useState('summary');
  const { printing, print } = usePrint();
  const run: RunDescription = { what: `${result.symbols.join(' ')} ${strategy.name}`, start: result.start_date, end: result.end_date };
  return (
    <>
      <RunHeader symbols={result.symbols}>
        <p class="results__what">
          <strong>{strategy.name}</strong> on <strong>{result.symbols.join(', ')}</strong>, {result.start_date} to {result.end_date} (
          {formatCount(result.dates.length)} daily bars)
        </p>
        {isOptionsResult(result) ? (
          <>
            <OptionsNotes result={result} creditMinAmount={strategy.credit_min_amount} />
            <p class="results__costs">{contractCommissionSentence(result.costs)}</p>
          </>
        ) : (
          <p class="results__costs">
            <strong>{costsSentence(result)}</strong> {sizingSentence(result)}
          </p>
        )}
      </RunHeader>
      <ExportActions run={run} trades={() => (isOptionsResult(result) ? optionsTradesCsv(result.trades) : libraryTradesCsv(result.trades))} equity={result} onPrint={print} />
      <Tabs
        label="Backtest result"
        chosen={tab}
        onChoose={setTab}
        showAll={printing}
        tabs={[
          { key: 'summary', label: 'Summary', panel: <LibrarySummary result={result} /> },
          { key: 'report', label: 'Report', panel: result.report ? <ReportView report={result.report} /> : <p class="muted">This answer carries no report.</p> },
        ]}
      />
    </>
  );
}

/** The summary tab: stats and charts, then an equity replay's per-symbol stats and trades, or an options replay's positions. */
function LibrarySummary(props: { result: ReportedLibraryBacktest }) {
  const { result } = props;
  return (
    <>
      <MetricCardList metrics={metricsOf(result.stats, result)} />
      <EquityCharts result={result} startingCapital={result.starting_capital} maxDrawdown={result.stats.max_drawdown} first={result.start_date} last={result.end_date} benchmark={result.benchmark} />
      {isOptionsResult(result) ? (
        <>
          <h3>Trades</h3>
          <OptionsTradesTable trades={result.trades} />
        </>
      ) : (
        <EquityTrades result={result} />
      )}
    </>
  );
}

/** An equity replay's trades: per-symbol stats, then every round trip. */
function EquityTrades(props: { result: LibraryBacktestResult }) {
  const { result } = props;
  const bySymbol = useMemo(() => Object.entries(statsBySymbol(result.trades)).sort(([a], [b]) => (a < b ? -1 : 1)), [result]);
  return (
    <>
      <h3 id="by-symbol-heading">By symbol</h3>
      {bySymbol.length === 0 ? (
        <p class="muted">No trades on any symbol.</p>
      ) : (
        <div class="table-scroll" role="region" aria-labelledby="by-symbol-heading" tabIndex={0}>
          <table class="symbol-stats">
            <thead>
              <tr>
                <th scope="col">Symbol</th>
                <th scope="col" class="num">Trades</th>
                <th scope="col" class="num">Won</th>
                <th scope="col" class="num">Lost</th>
                <th scope="col" class="num">Win rate</th>
                <th scope="col" class="num">P&amp;L</th>
                <th scope="col" class="num">Avg return</th>
              </tr>
            </thead>
            <tbody>
              {bySymbol.map(([symbol, stats]) => (
                <tr key={symbol}>
                  <th scope="row">{symbol}</th>
                  <td class="num">{formatCount(stats.total_trades)}</td>
                  <td class="num">{formatCount(stats.winning_trades)}</td>
                  <td class="num">{formatCount(stats.losing_trades)}</td>
                  <td class="num">
                    <MetricValue value={formatPercent(stats.win_rate)} />
                  </td>
                  <td class={`num ${signClass(stats.pnl)}`}>{formatMoney(stats.pnl)}</td>
                  <td class={`num ${signClass(stats.avg_return)}`}>
                    <MetricValue value={formatPercent(stats.avg_return)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>Trades</h3>
      <LibraryTradesTable trades={result.trades} />
    </>
  );
}
