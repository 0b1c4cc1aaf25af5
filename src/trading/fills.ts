/**
 * The paper fill rules and the position arithmetic, pure (no I/O): prices in, prices and whole cents out.
 * DESIGN "Paper trading": a market order fills at the latest stored close; a limit buy fills at that close when it
 * is at or below the limit, else rests and fills on the first newer bar whose low reaches the limit, at
 * min(open, limit); sells mirror it (close at or above, high reaches, max(open, limit)).
 */
import { proportionalCents } from './money.js';

export type Side = 'buy' | 'sell';
export type OrderType = 'market' | 'limit';

export interface FillBar {
  readonly date: string;
  readonly open: number;
  readonly high: number;
  readonly low: number;
}

/** The price an order fills at when placed against the latest close, or null when a limit order rests. */
export function immediateFillPrice(side: Side, orderType: OrderType, limit: number | null, close: number): number | null {
  if (orderType === 'market' || limit === null) return close;
  if (side === 'buy') return close <= limit ? close : null;
  return close >= limit ? close : null;
}

/** The first of `bars` (oldest first, all newer than the order's rest) that fills a resting limit, and its price; null when none does. */
export function restingFill(side: Side, limit: number, bars: readonly FillBar[]): { date: string; price: number } | null {
  for (const bar of bars) {
    if (side === 'buy' && bar.low <= limit) return { date: bar.date, price: Math.min(bar.open, limit) };
    if (side === 'sell' && bar.high >= limit) return { date: bar.date, price: Math.max(bar.open, limit) };
  }
  return null;
}

/** An open position: signed quantity (shares, or option contracts; negative = sold) and what it cost in cents. */
export interface Holding {
  readonly qty: number;
  readonly costCents: number;
}

export const FLAT: Holding = { qty: 0, costCents: 0 };

/**
 * Applies one trade to a holding: `delta` units (positive bought, negative sold) for `paidCents` (positive paid,
 * negative received). Adding to the position adds to its cost; reducing it takes away the reduced share of the cost
 * (proportionally, to the cent) and realizes the difference; going through zero is a close and an open, the payment
 * split in proportion.
 */
export function applyTrade(holding: Holding, delta: number, paidCents: number): { holding: Holding; realizedCents: number } {
  if (delta === 0) return { holding, realizedCents: -paidCents };
  if (holding.qty === 0 || Math.sign(holding.qty) === Math.sign(delta)) {
    return { holding: { qty: holding.qty + delta, costCents: holding.costCents + paidCents }, realizedCents: 0 };
  }
  const closing = Math.min(Math.abs(delta), Math.abs(holding.qty));
  const closingPaid = proportionalCents(paidCents, closing, Math.abs(delta));
  const removedCost = proportionalCents(holding.costCents, closing, Math.abs(holding.qty));
  const realizedCents = -closingPaid - removedCost;
  const rest = { qty: holding.qty + Math.sign(delta) * closing, costCents: holding.costCents - removedCost };
  if (closing === Math.abs(delta)) return { holding: rest, realizedCents };
  const opened = applyTrade(rest, delta + Math.sign(holding.qty) * closing, paidCents - closingPaid);
  return { holding: opened.holding, realizedCents };
}

/** An options order's net payment split over its legs by ratio, to the cent (the last leg takes the remainder). */
export function splitOverLegs(netCents: number, ratios: readonly number[]): number[] {
  const total = ratios.reduce((sum, ratio) => sum + ratio, 0);
  let left = netCents;
  return ratios.map((ratio, index) => {
    if (index === ratios.length - 1) return left;
    const share = proportionalCents(netCents, ratio, total);
    left -= share;
    return share;
  });
}
