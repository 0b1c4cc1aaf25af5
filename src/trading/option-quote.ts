/**
 * What a paper options order fills at, pure (no I/O). No option quotes are stored, so each leg is priced by
 * Black–Scholes on the underlying's latest close with its 20-day realized volatility (DESIGN "Options strategies in
 * backtests (modeled prices)"), and a fill pays half of the leg's modeled spread, max(5 % of its price, $0.05): a
 * bought leg above the model, a sold one below (never below 0). So every round trip pays the spread, and the order's
 * net price is only its limit (docs/trading.md "Options prices, structures and risk").
 */
import { parseOccSymbol } from '../compliance/occ-symbol.js';
import { calendarDaysBetween } from '../engine/dates.js';
import { blackScholesPrice, realizedVolatility, VOLATILITY_RETURNS, yearsToExpiry } from '../engine/options/black-scholes.js';
import { boughtPrice, centsDown, centsNearest, centsUp, soldPrice } from '../engine/options/modeled-spread.js';
import { money } from '../compliance/compliance-rules.js';
import type { StructureLeg } from './structure-payoff.js';

/** Closes needed for a modeled price: the 20 returns of the realized volatility. */
export const CLOSES_FOR_MODEL = VOLATILITY_RETURNS + 1;

/** Per share and from the side of the legs as sent (positive a debit, negative a credit), to the cent. */
export interface ModeledQuote {
  /** What the legs as sent fill at: each bought leg at its model price plus half its spread, each sold leg at it less half (≥ 0); rounded up. */
  readonly ask: number;
  /** What the mirror order (every side reversed) fills at, from the same side; rounded down. */
  readonly bid: number;
  /** The legs at their model prices. */
  readonly mid: number;
  /** The annualized realized volatility the legs were priced with (0.162 = 16.2 %). */
  readonly volatility: number;
}

export interface ModelMarket {
  /** The underlying's stored closes, oldest first; the last one is the spot. */
  readonly closes: readonly number[];
  /** The clock's date (New York), YYYY-MM-DD. */
  readonly today: string;
  readonly rate?: number;
}

/** The legs' modeled quote, or null with fewer than 21 closes. */
export function modeledQuote(legs: readonly StructureLeg[], market: ModelMarket): ModeledQuote | null {
  const volatility = realizedVolatility(market.closes);
  if (volatility === null) return null;
  const spot = market.closes[market.closes.length - 1]!;
  let ask = 0;
  let bid = 0;
  let mid = 0;
  for (const leg of legs) {
    const option = parseOccSymbol(leg.symbol);
    if (!option) throw new RangeError(`not an OCC symbol: ${leg.symbol}`);
    const years = yearsToExpiry(calendarDaysBetween(market.today, option.expiry));
    const model = blackScholesPrice({ right: option.type, spot, strike: option.strike, years, volatility, rate: market.rate ?? 0 });
    const [bought, sold] = [boughtPrice(model), soldPrice(model)];
    const sign = leg.side === 'buy' ? 1 : -1;
    ask += leg.ratio * (sign > 0 ? bought : -sold);
    bid += leg.ratio * (sign > 0 ? sold : -bought);
    mid += sign * leg.ratio * model;
  }
  return { ask: centsUp(ask), bid: centsDown(bid), mid: centsNearest(mid), volatility };
}

/** Whether an order with net price limit `limit` (a debit ≥ 0, a credit < 0) fills at `ask`: a debit no higher, a credit no smaller. */
export function isMarketable(quote: ModeledQuote, limit: number): boolean {
  return quote.ask <= limit;
}

/** The volatility as the app words it: "16.2 %". */
export function volatilityWords(volatility: number): string {
  return `${(volatility * 100).toFixed(1)} %`;
}

/** 422 `no_price`: too few closes for the realized volatility. */
export function noModelMessage(underlying: string, stored: number): string {
  return `Options are filled at a modeled price, which needs ${CLOSES_FOR_MODEL} daily closes of ${underlying} for its 20-day realized volatility; ${stored === 1 ? 'only 1 is' : `${stored} are`} stored: import its bars first.`;
}

/** 422 `limit_not_marketable`: the modeled ask (what the legs as sent fill at) and bid (what the reverse order fills at), and the limit. */
export function notMarketableMessage(quote: ModeledQuote, limit: number): string {
  return (
    `The limit, ${netWords(limit)} a share, is not marketable: at the modeled price the legs as sent fill at ${netWords(quote.ask)} a share (ask), ` +
    `the reverse order at ${netWords(-quote.bid)} (bid); Black–Scholes on the last close, 20-day realized volatility ${volatilityWords(quote.volatility)}.`
  );
}

/** "$2.48 credit", "$389.34 debit": a net price a share. */
function netWords(price: number): string {
  return price < 0 ? `${money(-price)} credit` : `${money(price)} debit`;
}
