import { useMemo } from 'preact/hooks';
import { ChartCredit } from '../lab/backtest-results';
import { formatCount, formatDays, formatMoney, formatPercent, formatRatio, formatWholeMoney, signClass } from '../lab/format';
import { MetricValue } from '../lab/metric-cards';
import { SeriesChart, type ChartLine } from '../lab/series-chart';
import { LibraryTradesTable } from './library-trades-table';
import { statsBySymbol } from './symbol-stats';
import type { LibraryBacktestResult, LibraryStats } from './types';

const EQUITY_COLOUR = '#1f5fbf';
const DRAWDOWN_COLOUR = '#b42318';

function metricsOf(stats: LibraryStats, result: LibraryBacktestResult) {
  return [
    { label: 'Total return', value: formatPercent(stats.total_return), tone: signClass(stats.total_return), explanation: 'Final capital ÷ starting capital − 1.' },
    { label: 'Annualized return', value: formatPercent(stats.annualized_return), tone: signClass(stats.annualized_return), explanation: 'The yearly rate that compounds to the total return.' },
    { label: 'Sharpe ratio', value: formatRatio(stats.sharpe_ratio), explanation: 'Mean ÷ standard deviation of daily returns × √252 (risk-free rate 0).' },
    { label: 'Sortino ratio', value: formatRatio(stats.sortino_ratio), explanation: 'Like Sharpe, counting only the downside deviation.' },
    { label: 'Max drawdown', value: formatPercent(stats.max_drawdown), tone: signClass(stats.max_drawdown), explanation: 'The deepest fall of equity below its running peak.' },
    { label: 'Exposure', value: formatPercent(stats.exposure), explanation: 'Share of the bars with a position open.' },
    { label: 'Win rate', value: formatPercent(stats.win_rate), explanation: 'Winning round trips ÷ all round trips.' },
    { label: 'Profit factor', value: formatRatio(stats.profit_factor), explanation: 'Gross profit ÷ gross loss; none without a losing trade.' },
    { label: 'Trades won / lost', value: `${formatCount(stats.winning_trades)} / ${formatCount(stats.losing_trades)}`, explanation: `Of ${formatCount(stats.total_trades)} round trips; break-even is neither.` },
    { label: 'Avg profit', value: formatMoney(stats.avg_profit), tone: signClass(stats.avg_profit), explanation: 'Mean P&L of the winning round trips.' },
    { label: 'Avg loss', value: formatMoney(stats.avg_loss), tone: signClass(stats.avg_loss), explanation: 'Mean P&L of the losing round trips.' },
    { label: 'Avg holding', value: formatDays(stats.avg_holding_days), explanation: 'Mean calendar days from entry to exit.' },
    { label: 'Final capital', value: formatMoney(result.final_capital), explanation: `Equity on the last bar, from ${formatMoney(result.starting_capital)}.` },
  ];
}

/** A library backtest's answer: stats, equity and drawdown charts (the lab's), per-symbol stats and the trades. */
export function LibraryResults(props: { result: LibraryBacktestResult; strategyName: string }) {
  const { result } = props;
  const equity = useMemo<ChartLine[]>(() => [{ name: 'Equity', color: EQUITY_COLOUR, values: result.equity_curve }], [result]);
  const drawdowns = useMemo<ChartLine[]>(() => [{ name: 'Drawdown', color: DRAWDOWN_COLOUR, values: result.drawdowns }], [result]);
  const bySymbol = useMemo(() => Object.entries(statsBySymbol(result.trades)).sort(([a], [b]) => (a < b ? -1 : 1)), [result]);
  return (
    <>
      <p class="results__what">
        <strong>{props.strategyName}</strong> on <strong>{result.symbols.join(', ')}</strong>, {result.start_date} to {result.end_date} (
        {formatCount(result.dates.length)} daily bars)
      </p>
      <dl class="metric-cards">
        {metricsOf(result.stats, result).map((metric) => (
          <div class="metric-card" key={metric.label} title={metric.explanation}>
            <dt>{metric.label}</dt>
            <dd class={`metric-card__value ${metric.tone ?? ''}`}>
              <MetricValue value={metric.value} />
            </dd>
            <dd class="metric-card__explanation">{metric.explanation}</dd>
          </div>
        ))}
      </dl>
      <div class="chart-pair">
        <SeriesChart
          class="chart--equity"
          caption="Equity curve"
          summary={`Equity at each close, from ${formatMoney(result.starting_capital)} on ${result.start_date} to ${formatMoney(result.final_capital)} on ${result.end_date}.`}
          dates={result.dates}
          lines={equity}
          kind="equity"
          formatValue={formatWholeMoney}
        />
        <SeriesChart
          class="chart--drawdown"
          caption="Drawdown"
          summary={`Fall of equity below its running peak at each close; deepest ${formatPercent(result.stats.max_drawdown)}.`}
          dates={result.dates}
          lines={drawdowns}
          kind="drawdown"
          formatValue={formatPercent}
        />
      </div>
      <ChartCredit />
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
