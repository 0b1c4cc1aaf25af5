import { formatCount, formatMoney } from '../ui/format';
import { fillWhen } from './price-words';
import type { OptionStructure, OptionsPreview, Order, OrderStatus, Portfolio } from './types';

/** Orders and the portfolio in words: pure, shared by the Trade page's parts and unit-tested. */

export const STATUS_LABELS: Readonly<Record<OrderStatus, string>> = {
  accepted: 'Resting',
  filled: 'Filled',
  rejected: 'Rejected',
  canceled: 'Canceled',
};

/** Why an order was refused, in words, by the server's code (the code itself is shown beside it). */
export const REASONS: Readonly<Record<string, string>> = {
  compliance_violation: 'breaks the strategy’s rules',
  insufficient_funds: 'not enough cash',
  insufficient_position: 'not enough shares',
  no_price: 'no stored price',
  option_expired: 'an expired leg',
  trade_cooldown: 'trading paused after a recovery',
  price_out_of_bounds: 'a price the structure could never be worth',
  limit_not_marketable: 'a limit the modeled price does not reach',
};

/** "10 SPX" or "1 × SPY: sell SPY261218P00400000, buy SPY261218P00390000" — what an order trades. */
export function orderWhat(order: Order): string {
  if (order.kind === 'equity') return `${formatCount(order.qty)} ${order.symbol}`;
  const legs = (order.legs ?? []).map((leg) => `${leg.side} ${leg.ratio > 1 ? `${leg.ratio} × ` : ''}${leg.symbol}`).join(', ');
  return `${formatCount(order.qty)} × ${order.underlying}: ${legs}`;
}

/** The order's price: the fill, or the limit it rests at; options as a net debit or credit a share. */
export function orderPrice(order: Order): string {
  if (order.kind === 'options') {
    const net = order.fill_price ?? order.limit_price;
    return net === null ? '—' : netPriceText(net);
  }
  if (order.fill_price !== null) return formatMoney(order.fill_price);
  return order.limit_price === null ? '—' : `limit ${formatMoney(order.limit_price)}`;
}

/** "Bought 10 SPX at $2,874.56." — the placed order in one sentence. */
export function placedSentence(order: Order): string {
  const what = order.kind === 'options' ? `${order.qty} × ${order.underlying} options order` : `${order.qty} ${order.symbol}`;
  if (order.status === 'accepted') {
    return `Limit ${order.side} of ${what} at ${formatMoney(order.limit_price)} is resting: it fills when a newer bar reaches the limit. Cancel it under Orders.`;
  }
  if (order.kind === 'options') {
    const net = order.fill_price ?? 0;
    return `Filled the ${what} at a net ${net < 0 ? 'credit' : 'debit'} of ${formatMoney(Math.abs(net))} a share.`;
  }
  const when = fillWhen(order);
  return `${order.side === 'buy' ? 'Bought' : 'Sold'} ${what} at ${formatMoney(order.fill_price)}${when ? `, ${when}` : ''}.`;
}

/** The sum of the positions' unrealized P&L: 0 without positions, null when none has a price to value it at. */
export function unrealizedTotal(portfolio: Portfolio): number | null {
  if (portfolio.positions.length === 0) return 0;
  const known = portfolio.positions.map((position) => position.unrealized_pnl).filter((pnl): pnl is number => pnl !== null);
  return known.length === 0 ? null : Math.round(known.reduce((sum, pnl) => sum + pnl, 0) * 100) / 100;
}


/** "Sell SPY 500 put, buy SPY 490 put" — a structure's legs by strike, with the ratio when above 1. */
export function structureLegs(structure: OptionStructure): string {
  const legs = structure.legs.map((leg) => `${leg.side} ${leg.ratio > 1 ? `${leg.ratio} × ` : ''}${structure.underlying} ${leg.strike} ${leg.right}`);
  const text = legs.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The expiry of a structure's legs: one date, or the dates joined when they differ; an expired one is said to await its settlement. */
export function structureExpiry(structure: OptionStructure): string {
  const dates = [...new Set(structure.legs.map((leg) => leg.expiry))].join(', ');
  return structure.awaiting_settlement ? `${dates}: expired, awaiting settlement at the expiry’s close` : dates;
}

/** "Settled at expiry (2026-03-20) on the close of 2026-03-20, $441.22" — a settlement order's reason; null for a trade. */
export function settlementText(order: Order): string | null {
  const settlement = order.settlement;
  if (!settlement) return null;
  return `Settled at expiry (${settlement.expiry}) on the close of ${settlement.close_date}, ${formatMoney(settlement.underlying_close)}`;
}

/** "$1.35 credit" or "$4.00 debit" — a net price a share as paid or received. */
export function netPriceText(net: number): string {
  return `${formatMoney(Math.abs(net))} ${net < 0 ? 'credit' : 'debit'}`;
}

/** A maximum loss or gain: the amount, or "Unlimited" when it has no limit. */
export function riskAmount(value: number | null): string {
  return value === null ? 'Unlimited' : formatMoney(value);
}

/** The breakevens at expiry ("$498.65", "$497.00 and $523.00"), or a dash when there is none to give. */
export function breakevensText(risk: Pick<OptionsPreview, 'breakevens'>): string {
  return risk.breakevens.length === 0 ? '—' : risk.breakevens.map((price) => formatMoney(price)).join(' and ');
}
