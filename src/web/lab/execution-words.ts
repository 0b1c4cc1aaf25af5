/** The execution settings a run used, and its exit reasons, in the words the lab shows. */
import type { TemplateExitReason } from '../../engine/execution/settings';
import { formatPercent } from '../ui/format';
import type { BacktestResult } from './types';

/** Dollars to the cent, or to the tenth of a cent and beyond where a fee has them ($0.005). */
export const fee = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 });

export const EXIT_REASON_LABELS: Readonly<Record<TemplateExitReason, string>> = {
  signal: 'Signal',
  stop_loss: 'Stop loss',
  trailing_stop: 'Trailing stop',
  take_profit: 'Take profit',
  end_of_period: 'End of period',
};

/** The costs the run assumed, or "No costs assumed" plainly when there were none (or the answer names none). */
export function costsSentence(result: Pick<BacktestResult, 'costs'>): string {
  const costs = result.costs;
  const parts: string[] = [];
  if (costs) {
    if (costs.commission_per_share > 0) parts.push(`${fee.format(costs.commission_per_share)} a share`);
    if (costs.commission_pct > 0) parts.push(`${formatPercent(costs.commission_pct)} of each fill’s value`);
    if (costs.commission_min > 0) parts.push(`${parts.length > 0 ? 'at least ' : ''}${fee.format(costs.commission_min)} an order`);
    if (costs.slippage_bps > 0) parts.push(`${costs.slippage_bps} bp slippage`);
  }
  return parts.length === 0 ? 'No costs assumed: every fill at the open, no commission, no slippage.' : `Costs assumed: ${parts.join(', ')}.`;
}

/** The sizing and exits the run used, in one sentence. */
export function sizingSentence(result: Pick<BacktestResult, 'sizing' | 'exits'>): string {
  const sizing = result.sizing;
  const value = sizing?.value ?? 0;
  const size =
    sizing?.mode === 'percent_of_equity'
      ? `${formatPercent(value)} of equity a trade`
      : sizing?.mode === 'fixed_amount'
        ? `${fee.format(value)} a trade`
        : sizing?.mode === 'fixed_shares'
          ? `${value.toLocaleString('en-US')} shares a trade`
          : 'all in';
  const exits = result.exits;
  const named = [
    exits?.stop_loss_pct != null && `stop loss ${formatPercent(exits.stop_loss_pct)}`,
    exits?.trailing_stop_pct != null && `trailing stop ${formatPercent(exits.trailing_stop_pct)}`,
    exits?.take_profit_pct != null && `take profit ${formatPercent(exits.take_profit_pct)}`,
  ].filter((part): part is string => Boolean(part));
  return `Sizing: ${size}. Exits: ${named.length > 0 ? `${named.join(', ')}, then the strategy’s own` : 'the strategy’s own'}.`;
}
