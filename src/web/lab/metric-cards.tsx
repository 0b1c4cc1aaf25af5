import { formatCount, formatMoney, formatPercent, formatRatio, NONE, signClass } from '../ui/format';
import type { BacktestResult } from './types';

/** One summary statistic, as a card shows it: `tone` is the class of a gain or a loss. */
export interface Metric {
  readonly label: string;
  readonly value: string;
  readonly explanation: string;
  readonly tone?: string;
}

/** The statistics of the round trips, alike in the lab and the library: win rate to average loss. */
export type RoundTripStats = Pick<BacktestResult, 'win_rate' | 'profit_factor' | 'total_trades' | 'winning_trades' | 'losing_trades' | 'avg_profit' | 'avg_loss'>;

export function roundTripMetrics(stats: RoundTripStats): Metric[] {
  return [
    { label: 'Win rate', value: formatPercent(stats.win_rate), explanation: 'Winning round trips ÷ all round trips.' },
    { label: 'Profit factor', value: formatRatio(stats.profit_factor), explanation: 'Gross profit ÷ gross loss; none without a losing trade.' },
    { label: 'Trades won / lost', value: `${formatCount(stats.winning_trades)} / ${formatCount(stats.losing_trades)}`, explanation: `Of ${formatCount(stats.total_trades)} round trips; break-even is neither.` },
    { label: 'Avg profit', value: formatMoney(stats.avg_profit), tone: signClass(stats.avg_profit), explanation: 'Mean P&L of the winning round trips.' },
    { label: 'Avg loss', value: formatMoney(stats.avg_loss), tone: signClass(stats.avg_loss), explanation: 'Mean P&L of the losing round trips.' },
  ];
}

/** Statistics as cards: a name, a value and, beneath it (and on hover), what the value means. */
export function MetricCardList(props: { metrics: readonly Metric[] }) {
  return (
    <dl class="metric-cards">
      {props.metrics.map((metric) => (
        <div class="metric-card" key={metric.label} title={metric.explanation}>
          <dt>{metric.label}</dt>
          <dd class={`metric-card__value ${metric.tone ?? ''}`}>
            <MetricValue value={metric.value} />
          </dd>
          <dd class="metric-card__explanation">{metric.explanation}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A dash alone reads as "em dash" aloud; say what it means instead. */
export function MetricValue(props: { value: string }) {
  if (props.value !== NONE) return <>{props.value}</>;
  return (
    <>
      <span aria-hidden="true">{NONE}</span>
      <span class="visually-hidden">not defined</span>
    </>
  );
}
