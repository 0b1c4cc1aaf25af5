import { amountCents } from '../../trading/money';
import { formatCount, formatMoney } from '../ui/format';
import type { Order, PriceQuote } from './types';

/** Prices and their sources in words: pure, shared by the ticket, the history and the notices, and unit-tested. */

const PROVIDER_NAMES: Readonly<Record<NonNullable<PriceQuote['provider']>, string>> = { yahoo: 'Yahoo Finance', alpaca: 'Alpaca' };

const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false });

/** An ISO 8601 instant as "15:42" in the browser's time zone; unreadable text as is. */
export function clockTime(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? instant : clock.format(date);
}

/**
 * Where a filled order's price came from (docs/trading.md "Fill source"): "filled at the close of 2020-04-17",
 * "filled at 15:42 (delayed)", …; null when the server did not record it (orders from before, settlements).
 */
export function fillWhen(order: Pick<Order, 'fill_source' | 'price_at'>): string | null {
  const at = order.price_at;
  if (at === null) return null;
  switch (order.fill_source) {
    case 'delayed_quote':
      return `filled at ${clockTime(at)} (delayed)`;
    case 'stored_close':
      return `filled at the close of ${at}`;
    case 'resting_bar':
      return `filled on the bar of ${at}, which reached the limit`;
    case 'modeled_price':
      return `filled at the modeled price on the close of ${at}`;
    default:
      return null;
  }
}

/** "$101.37 at 15:42 (delayed, Yahoo Finance)" or "$2,874.56, the close of 2020-04-17 (the market is closed)". */
export function quoteText(quote: PriceQuote): string {
  if (quote.source === 'delayed_quote') {
    return `${formatMoney(quote.price)} at ${clockTime(quote.at)} (delayed${quote.provider ? `, ${PROVIDER_NAMES[quote.provider]}` : ''})`;
  }
  return `${formatMoney(quote.price)}, the close of ${quote.at}${quote.market_closed ? ' (the market is closed)' : ''}`;
}

/** What the ticket would do at `quote`: fill at it (a market order, a marketable limit) or rest at the limit. */
export interface TicketEstimate {
  readonly side: 'buy' | 'sell';
  readonly qty: number;
  /** Null for a market order. */
  readonly limit: number | null;
  /** Cash not held back (cash − reserved), before the order; null while the portfolio is not loaded. */
  readonly available: number | null;
}

/**
 * "Estimated cost: 3 × $101.37 = $304.11. Cash available after: $99,695.89." — the order at the quoted price, exact
 * to the cent as the server books it (money.ts); a limit the price does not reach rests instead, holding its cash.
 */
export function estimateText(quote: PriceQuote, ticket: TicketEstimate): string {
  const { side, qty, limit } = ticket;
  const marketable = limit === null || (side === 'buy' ? quote.price <= limit : quote.price >= limit);
  const price = marketable ? quote.price : limit!;
  const cents = amountCents(qty, price);
  const amount = `${formatCount(qty)} × ${formatMoney(price)} = ${formatMoney(cents / 100)}`;
  if (!marketable) {
    const held = side === 'buy' ? ` It holds ${amount} of your cash meanwhile.` : ` It holds back the ${formatCount(qty)} shares meanwhile.`;
    return `The limit is not reached at this price: the order rests until a newer bar reaches ${formatMoney(limit)}.${held}`;
  }
  if (ticket.available === null) return `Estimated ${side === 'buy' ? 'cost' : 'proceeds'}: ${amount}.`;
  const availableCents = Math.round(ticket.available * 100);
  const after = side === 'buy' ? availableCents - cents : availableCents + cents;
  const short = after < 0 ? ` That is more than the ${formatMoney(ticket.available)} available: the order would be refused.` : '';
  return `Estimated ${side === 'buy' ? 'cost' : 'proceeds'}: ${amount}. Cash available after: ${formatMoney(after / 100)}.${short}`;
}
