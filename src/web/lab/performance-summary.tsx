import { formatCount, formatDays, formatMoney, formatPercent, formatRatio, signClass } from '../ui/format';
import { MetricCardList, type Metric } from './metric-cards';
import { buyAndHoldReturn, type TradeSummary } from './round-trips';
import type { BacktestResult } from './types';

const BAR = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/**
 * One lab backtest's performance summary, named as TradingView's strategy tester names its figures. What the
 * answer carries is read from it (docs/backtesting.md "Metrics"); the rest comes from its trades (round-trips.ts).
 */
function summaryMetrics(result: BacktestResult, trades: TradeSummary): Metric[] {
  const money = (label: string, value: number | null, explanation: string): Metric => ({ label, value: formatMoney(value), tone: signClass(value), explanation });
  const percent = (label: string, value: number | null, explanation: string): Metric => ({ label, value: formatPercent(value), tone: signClass(value), explanation });
  const hold = buyAndHoldReturn(result);
  const metrics: Metric[] = [
    money('Net profit', trades.net_profit, 'Final capital − initial capital, after every cost.'),
    percent('Total return', result.total_return, 'Final capital ÷ initial capital − 1.'),
    percent('Annualized return', result.annualized_return, 'The yearly rate that compounds to the total return.'),
    percent('Buy and hold return', hold, `${result.symbol} held from the first close to the last, the same capital, no costs.`),
    money('Gross profit', trades.gross_profit, 'Sum of the winning round trips’ P&L.'),
    money('Gross loss', trades.gross_loss, 'Sum of the losing round trips’ P&L.'),
    money('Commission paid', result.costs_paid?.commission ?? 0, 'Every fill’s commission, buys and sells.'),
    money('Slippage paid', result.costs_paid?.slippage ?? 0, 'What filling off the open cost: Σ |fill − open| × shares.'),
    { label: 'Max drawdown', value: formatPercent(result.max_drawdown), tone: signClass(result.max_drawdown), explanation: 'The deepest fall of equity below its running peak.' },
    { label: 'Sharpe ratio', value: formatRatio(result.sharpe_ratio), explanation: 'Mean ÷ standard deviation of daily returns × √252 (risk-free rate 0).' },
    { label: 'Sortino ratio', value: formatRatio(trades.sortino_ratio), explanation: 'Like Sharpe, counting only the downside deviation.' },
    { label: 'Profit factor', value: formatRatio(result.profit_factor), explanation: 'Gross profit ÷ gross loss; none without a losing trade.' },
    { label: 'Total trades', value: formatCount(result.total_trades), explanation: `Round trips: ${formatCount(result.winning_trades)} won, ${formatCount(result.losing_trades)} lost.` },
    { label: 'Percent profitable', value: formatPercent(result.win_rate), explanation: 'Winning round trips ÷ all round trips.' },
    money('Avg trade', trades.average_trade, 'Mean P&L of a round trip.'),
    money('Largest win', trades.largest_win, 'The best round trip’s P&L.'),
    money('Largest loss', trades.largest_loss, 'The worst round trip’s P&L.'),
    { label: 'Avg bars in trade', value: trades.average_bars === null ? formatCount(null) : BAR.format(trades.average_bars), explanation: `Daily bars from buy to sell; ${formatDays(result.avg_holding_days)} on the calendar.` },
    { label: 'Final capital', value: formatMoney(result.final_capital), explanation: `Equity on the last bar, from ${formatMoney(result.initial_capital)}.` },
  ];
  if (result.benchmark) {
    metrics.push(
      { label: 'Alpha', value: formatPercent(result.alpha ?? null), tone: signClass(result.alpha ?? null), explanation: `Yearly return beyond what beta to ${result.benchmark.symbol} explains.` },
      { label: 'Beta', value: formatRatio(result.beta ?? null), explanation: `How the daily returns move with ${result.benchmark.symbol}’s.` },
    );
  }
  return metrics;
}

export function PerformanceSummary(props: { result: BacktestResult; trades: TradeSummary }) {
  return <MetricCardList metrics={summaryMetrics(props.result, props.trades)} />;
}
