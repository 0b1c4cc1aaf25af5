import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { parseOccSymbol } from '../../src/compliance/occ-symbol.js';
import { calendarDaysBetween } from '../../src/engine/dates.js';
import { blackScholesPrice, realizedVolatility, yearsToExpiry } from '../../src/engine/options/black-scholes.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { createTestDatabase } from '../helpers/dialects.js';
import { libraryUser } from '../strategies/library-kit.js';
import { placeOptionsOrder, portfolioOf, seedBars, volatileBars } from './trading-kit.js';

/** The contracts the orders are made of: puts and calls around SPX at 4,500, one put of a second expiry. */
const CONTRACTS = ['SPX260417P04300000', 'SPX260417P04400000', 'SPX260417P04500000', 'SPX260417C04500000', 'SPX260417C04600000', 'SPX260417C04700000', 'SPX260515P04400000'];
const LAST_CLOSE = 4500;
const BARS = volatileBars('2026-03-06', LAST_CLOSE);
const TODAY = '2026-03-10';
const START_CENTS = 10_000_000;

type Side = 'buy' | 'sell';
interface Leg {
  readonly symbol: string;
  readonly side: Side;
  readonly ratio: number;
}
interface Placed {
  readonly legs: readonly Leg[];
  readonly qty: number;
  readonly price: number;
}

/**
 * The prices of the underlying at expiry where a payoff can be largest or smallest: it is linear between 0, the
 * strikes and a cap (above the highest strike a call is counted up to the last close more, as the server bounds a
 * call's premium by the last close), so its extremes are at those points.
 */
const STRIKES = CONTRACTS.map((symbol) => parseOccSymbol(symbol)!.strike);
const PRICES = [0, ...STRIKES, Math.max(...STRIKES) + LAST_CLOSE];

/** Dollars a share that `legs` (signed: bought positive) pay at expiry with the underlying at `price` (each expiry alike). */
function payoff(legs: readonly { symbol: string; contracts: number }[], price: number): number {
  return legs.reduce((sum, { symbol, contracts }) => {
    const option = parseOccSymbol(symbol)!;
    return sum + contracts * Math.max(0, option.type === 'call' ? price - option.strike : option.strike - price);
  }, 0);
}

/** What one unit of an order's legs can pay at expiry, least and most, per share (expiries apart: each at its own price). */
function payoffRange(legs: readonly Leg[]): { least: number; most: number } {
  const byExpiry = new Map<string, { symbol: string; contracts: number }[]>();
  for (const leg of legs) {
    const expiry = parseOccSymbol(leg.symbol)!.expiry;
    byExpiry.set(expiry, [...(byExpiry.get(expiry) ?? []), { symbol: leg.symbol, contracts: (leg.side === 'buy' ? 1 : -1) * leg.ratio }]);
  }
  let least = 0;
  let most = 0;
  for (const group of byExpiry.values()) {
    const values = PRICES.map((price) => payoff(group, price));
    least += Math.min(...values);
    most += Math.max(...values);
  }
  return { least, most };
}

const leg = fc.record({ index: fc.nat({ max: CONTRACTS.length - 1 }), side: fc.constantFrom<Side>('buy', 'sell'), ratio: fc.integer({ min: 1, max: 2 }) });
/** What one contract of `symbol` is worth a share at the model the server fills at (no spread). */
function modelPrice(symbol: string): number {
  const option = parseOccSymbol(symbol)!;
  const volatility = realizedVolatility(BARS.map((b) => b.close))!;
  return blackScholesPrice({ right: option.type, spot: LAST_CLOSE, strike: option.strike, years: yearsToExpiry(calendarDaysBetween(TODAY, option.expiry)), volatility });
}

/** A net price a share: anything from −500 to 500 by the cent (small ones often: most legs are worth under 100), or one of the exploits. */
const netPrice = fc.oneof(
  fc.integer({ min: -50_000, max: 50_000 }).map((cents) => cents / 100),
  fc.integer({ min: -10_000, max: 10_000 }).map((cents) => cents / 100),
  fc.constantFrom(0, 0.01, -0.01, -10_000, -50_000, 10_000, -500, -150, -100, 100, -0.99),
);
/** A new structure (legs may repeat a contract), or the mirror of an order already filled (a close) at any price. */
const step = fc.oneof(
  fc.record({ kind: fc.constant('open' as const), legs: fc.array(leg, { minLength: 1, maxLength: 4 }), qty: fc.integer({ min: 1, max: 3 }), price: netPrice }),
  fc.record({ kind: fc.constant('close' as const), which: fc.nat(), qty: fc.integer({ min: 1, max: 3 }), price: netPrice }),
);

/**
 * Issue 29's property. Every accepted order pays its net price for legs whose payoff at expiry lies between `least`
 * and `most` a share; its gain at any price of the underlying is then at most (most − least) × 100 × qty whatever
 * its price, if and only if the price was within the range. So, over any sequence of orders, at every price of the
 * underlying: cash + what the contracts held pay ≤ the starting cash + Σ (most − least) × 100 × qty of the accepted
 * orders — no money from nothing — and, the other way, ≥ the starting cash − the same sum. And since every fill is
 * at the model's price plus half its spread (a buy) or less half (a sell), at a fixed close no sequence of orders can
 * gain: cash plus the contracts held at the model's prices stays at or below the starting cash.
 */
describe('options orders never make money the structures could not pay (property, SQLite)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let app: App;
  const clock = new ManualClock('2026-03-10T15:00:00.000Z');

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildTestApp(database.handle, { clock });
    await seedBars(database.handle.db, clock, 'SPX', BARS);
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('cash plus the held contracts at the model’s prices never exceeds the starting cash, and cash plus what they pay stays within it ± what the accepted structures could ever pay', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        const user = await libraryUser(app, database.handle.db);
        const accepted: Placed[] = [];
        for (const s of steps) {
          clock.advance(1000);
          const order: Placed =
            s.kind === 'open'
              ? { legs: s.legs.map((l) => ({ symbol: CONTRACTS[l.index]!, side: l.side, ratio: l.ratio })), qty: s.qty, price: s.price }
              : accepted.length === 0
                ? { legs: [{ symbol: CONTRACTS[0]!, side: 'sell', ratio: 1 }], qty: s.qty, price: s.price }
                : { ...mirror(accepted[s.which % accepted.length]!), qty: s.qty, price: s.price };
          const response = await placeOptionsOrder(user.client, { underlying: 'SPX', legs: order.legs, qty: order.qty, net_price: order.price });
          expect([201, 400, 422], response.body).toContain(response.statusCode);
          if (response.statusCode === 201) accepted.push(order);
        }
        const portfolio = await portfolioOf(user.client);
        const held = portfolio.options_positions.map((p: { symbol: string; qty: number }) => ({ symbol: p.symbol, contracts: p.qty }));
        const couldPay = accepted.reduce((sum, order) => {
          const { least, most } = payoffRange(order.legs);
          return sum + Math.round((most - least) * 100 * 100) * order.qty;
        }, 0);
        const cashCents = Math.round(portfolio.cash * 100);
        // Every fill pays half the modeled spread: everything held, closed at the model's own prices, leaves at most
        // the starting cash (a round trip can only lose).
        const atModel = held.reduce((sum: number, h: { symbol: string; contracts: number }) => sum + h.contracts * modelPrice(h.symbol) * 100 * 100, 0);
        expect(cashCents + atModel).toBeLessThanOrEqual(START_CENTS + 1e-6);
        for (const price of PRICES) {
          const worth = cashCents + Math.round(payoff(held, price) * 100 * 100);
          expect(worth - START_CENTS, `underlying at ${price}`).toBeLessThanOrEqual(couldPay);
          expect(START_CENTS - worth, `underlying at ${price}`).toBeLessThanOrEqual(couldPay);
        }
        // The structures shown add up to the contracts held.
        const fromStructures = new Map<string, number>();
        for (const structure of portfolio.options_structures as { qty: number; legs: Leg[] }[]) {
          for (const l of structure.legs) fromStructures.set(l.symbol, (fromStructures.get(l.symbol) ?? 0) + (l.side === 'buy' ? 1 : -1) * l.ratio * structure.qty);
        }
        expect(new Map([...fromStructures].filter(([, qty]) => qty !== 0))).toEqual(new Map(held.map((h: { symbol: string; contracts: number }) => [h.symbol, h.contracts])));
      }),
      { numRuns: 60 },
    );
  }, 240_000);
});

function mirror(order: Placed): Pick<Placed, 'legs'> {
  return { legs: order.legs.map((l) => ({ ...l, side: l.side === 'buy' ? 'sell' : 'buy' })) };
}
