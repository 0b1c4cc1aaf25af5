import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp, TEST_ORIGIN } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { libraryUser, type LibraryUser } from '../strategies/library-kit.js';
import { blackScholesPrice, realizedVolatility, yearsToExpiry } from '../../src/engine/options/black-scholes.js';
import { calendarDaysBetween } from '../../src/engine/dates.js';
import { bar, OPTIONS_ORDERS, orderRows, placeOptionsOrder, portfolioOf, seedBars, stateOf, volatileBars } from './trading-kit.js';

const leg = (symbol: string, side: 'buy' | 'sell', ratio = 1) => ({ symbol, side, ratio });
const PREVIEW = `${OPTIONS_ORDERS}/preview`;

/** Issue 29: no paper money from nothing — an options order's net price is one its structure could be worth. */
describeEachDialect('trade window: options orders at prices their structures could be worth', (database) => {
  const db = () => database().handle.db;
  const clock = new ManualClock('2026-03-10T15:00:00.000Z');
  let app: App;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    await seedBars(db(), clock, 'SPX', volatileBars('2026-03-06', 4500));
    await seedBars(db(), clock, 'NDX', [bar('2026-03-06', 18000)]);
  });
  afterAll(async () => app.close());

  /** A user with an open paper account (100,000 cash). */
  async function trader(): Promise<LibraryUser> {
    const user = await libraryUser(app, db());
    expect((await user.client.post('/api/trade-window/portfolio/reset')).statusCode).toBe(200);
    return user;
  }

  /** The account and positions before and after `act` are the same; the orders only gain rejected ones. */
  async function changesNothing(user: LibraryUser, act: () => Promise<void>): Promise<void> {
    const before = (await stateOf(db(), user.userId)) as { orders: unknown[] };
    await act();
    const after = (await stateOf(db(), user.userId)) as { orders: { status: string }[] };
    expect({ ...after, orders: [] }).toEqual({ ...before, orders: [] });
    expect(after.orders.slice(before.orders.length).every((order) => order.status === 'rejected')).toBe(true);
  }

  /** What buying one contract of `symbol` costs a share at the model: its price plus half of max(5 %, $0.05), up to the cent. */
  function modeledAsk(symbol: string): number {
    const strike = Number(symbol.slice(-8)) / 1000;
    const expiry = `20${symbol.slice(3, 5)}-${symbol.slice(5, 7)}-${symbol.slice(7, 9)}`;
    const volatility = realizedVolatility(volatileBars('2026-03-06', 4500).map((b) => b.close))!;
    const years = yearsToExpiry(calendarDaysBetween('2026-03-10', expiry));
    const model = blackScholesPrice({ right: symbol[9] === 'P' ? 'put' : 'call', spot: 4500, strike, years, volatility });
    return Math.ceil((model + Math.max(0.05 * model, 0.05) / 2) * 100 - 1e-6) / 100;
  }

  it('the issue’s round trips: a put bought at 0.01 and sold at 4,444, a 1-wide call spread at 0.01 and −0.99, are refused; one at marketable limits pays the spread', async () => {
    const user = await trader();
    const put = 'SPX301218P04444000';
    const attempts = [
      { legs: [leg(put, 'buy')], qty: 22_000, net_price: 0.01 },
      { legs: [leg(put, 'sell')], qty: 22_000, net_price: -4444 },
      { legs: [leg('SPX301218C04700000', 'buy'), leg('SPX301218C04701000', 'sell')], qty: 1, net_price: 0.01 },
      { legs: [leg('SPX301218C04700000', 'sell'), leg('SPX301218C04701000', 'buy')], qty: 1, net_price: -0.99 },
    ];
    await changesNothing(user, async () => {
      const refusals: string[] = [];
      for (const body of attempts) {
        clock.advance(1000);
        const response = await placeOptionsOrder(user.client, { underlying: 'SPX', ...body });
        expect(response.statusCode, response.body).toBe(422);
        refusals.push(response.json().error);
      }
      // The put never bought, its sale would be naked.
      expect(refusals).toEqual(['limit_not_marketable', 'insufficient_position', 'limit_not_marketable', 'limit_not_marketable']);
    });
    // Bought at any limit up to its bound, sold at any credit: it fills at the model's ask, then at its bid.
    for (const [legs, limit] of [
      [[leg(put, 'buy')], 4444],
      [[leg(put, 'sell')], -0.01],
      [[leg('SPX301218C04000000', 'buy'), leg('SPX301218C05000000', 'sell')], 999],
      [[leg('SPX301218C04000000', 'sell'), leg('SPX301218C05000000', 'buy')], -0.01],
    ] as const) {
      clock.advance(1000);
      const response = await placeOptionsOrder(user.client, { underlying: 'SPX', legs, qty: 1, net_price: limit });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().fill_price).toBeLessThan(limit);
    }
    const portfolio = await portfolioOf(user.client);
    expect(portfolio).toMatchObject({ options_positions: [], options_structures: [] });
    expect(portfolio.cash).toBeLessThan(100000);
  });

  it('fills at the modeled ask, exact to the cent, and records the structure at that price', async () => {
    const user = await trader();
    const put = 'SPX301218P04444000';
    const ask = modeledAsk(put);
    const response = await placeOptionsOrder(user.client, { underlying: 'SPX', legs: [leg(put, 'buy')], qty: 1, net_price: 700 });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ status: 'filled', limit_price: 700, fill_price: ask, fill_source: 'modeled_price', price_at: '2026-03-06' });
    const portfolio = await portfolioOf(user.client);
    expect(portfolio.cash).toBe((10_000_000 - Math.round(ask * 100 * 100)) / 100);
    expect(portfolio.options_structures).toMatchObject([{ net_price: ask }]);
  });

  it('a limit that is not marketable is refused with the modeled bid and ask, stored rejected, cash unchanged', async () => {
    const user = await trader();
    const put = 'SPX301218P04444000';
    const ask = modeledAsk(put);
    await changesNothing(user, async () => {
      const response = await placeOptionsOrder(user.client, { underlying: 'SPX', legs: [leg(put, 'buy')], qty: 1, net_price: ask - 0.01 });
      expect(response.statusCode, response.body).toBe(422);
      const [limitText, askText] = [ask - 0.01, ask].map((price) => `$${price.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} debit`);
      expect(response.json()).toEqual({
        error: 'limit_not_marketable',
        message: expect.stringMatching(
          new RegExp(`^The limit, \\${limitText} a share, is not marketable: at the modeled price the legs as sent fill at \\${askText} a share \\(ask\\), the reverse order at \\$[\\d,.]+ credit \\(bid\\); Black–Scholes on the last close, 20-day realized volatility 16\\.2 %\\.$`),
        ),
      });
    });
    expect((await orderRows(db(), user.userId)).map((order) => [order.status, order.reject_reason])).toEqual([['rejected', 'limit_not_marketable']]);
    expect(await portfolioOf(user.client)).toMatchObject({ cash: 100000, options_positions: [] });
  });

  it('an underlying with fewer than 21 closes has no modeled price: 422 no_price', async () => {
    const user = await trader();
    await changesNothing(user, async () => {
      const response = await placeOptionsOrder(user.client, { underlying: 'NDX', legs: [leg('NDX301218P15000000', 'buy')], qty: 1, net_price: 5000 });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toMatchObject({ error: 'no_price', message: expect.stringContaining('21') });
    });
  });

  it('the same contract on two legs is a 400: nothing stored, no cash', async () => {
    const user = await trader();
    await changesNothing(user, async () => {
      for (const legs of [
        [leg('SPX301218C04444000', 'buy'), leg('SPX301218C04444000', 'sell')],
        // Either OCC spelling is the same contract.
        [leg('SPX301218C04444000', 'buy'), leg('SPX   301218C04444000', 'buy')],
      ]) {
        const response = await placeOptionsOrder(user.client, { underlying: 'SPX', legs, qty: 1, net_price: -10000 });
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json()).toMatchObject({ error: 'validation_failed', message: expect.stringContaining('SPX301218C04444000 is on legs 1 and 2'), details: [{ field: 'body.legs.1.symbol' }] });
      }
    });
    expect(await orderRows(db(), user.userId)).toEqual([]);
    expect(await portfolioOf(user.client)).toMatchObject({ cash: 100000, options_positions: [], options_structures: [] });
  });

  it('a put bought for nothing and sold above its strike, a 1-wide call spread sold for 500, a 100-wide put spread for 150: 422 with the bound', async () => {
    const user = await trader();
    const put = 'SPX301218P04000000';
    const refusals: [Record<string, unknown>, string][] = [
      [{ legs: [leg(put, 'buy')], net_price: 0 }, 'A single option’s premium must be above $0.00: $0.00 is not.'],
      [{ legs: [leg('SPX301218C04700000', 'sell'), leg('SPX301218C04701000', 'buy')], net_price: -500 }, 'A vertical spread’s credit must be below its width, $1.00 a share: $500.00 is not.'],
      [{ legs: [leg('SPX301218P02600000', 'sell'), leg('SPX301218P02500000', 'buy')], net_price: -150 }, 'A vertical spread’s credit must be below its width, $100.00 a share: $150.00 is not.'],
      [{ legs: [leg('SPX301218P02600000', 'sell'), leg('SPX301218P02500000', 'buy')], net_price: -100 }, 'A vertical spread’s credit must be below its width, $100.00 a share: $100.00 is not.'],
      [{ legs: [leg('SPX301218C04700000', 'buy'), leg('SPX301218C04750000', 'sell')], net_price: 50 }, 'A vertical spread’s debit must be below its width, $50.00 a share: $50.00 is not.'],
      [
        { legs: [leg('SPX301218P03900000', 'buy'), leg('SPX301218P04000000', 'sell'), leg('SPX301218C05000000', 'sell'), leg('SPX301218C05150000', 'buy')], net_price: -150 },
        'An iron condor’s credit must be below its wider wing, $150.00 a share: $150.00 is not.',
      ],
      [{ legs: [leg('SPX301218C05000000', 'buy')], net_price: 4500.01 }, 'A single call’s premium is at most the underlying’s last close, $4,500.00 a share: $4,500.01 is not.'],
    ];
    await changesNothing(user, async () => {
      for (const [body, message] of refusals) {
        clock.advance(1000);
        const response = await placeOptionsOrder(user.client, { underlying: 'SPX', qty: 1, ...body });
        expect(response.statusCode, response.body).toBe(422);
        expect(response.json()).toEqual({ error: 'price_out_of_bounds', message });
      }
    });
    // Stored as rejected, so the history shows why.
    expect((await orderRows(db(), user.userId)).map((order) => order.reject_reason)).toEqual(refusals.map(() => 'price_out_of_bounds'));

    // A put held (bought at its modeled ask) cannot be sold above its strike: the $5,000,000 of the issue stays unmade.
    clock.advance(1000);
    expect((await placeOptionsOrder(user.client, { underlying: 'SPX', legs: [leg(put, 'buy')], qty: 1, net_price: 4000 })).statusCode).toBe(201);
    await changesNothing(user, async () => {
      clock.advance(1000);
      const sale = await placeOptionsOrder(user.client, { underlying: 'SPX', legs: [leg(put, 'sell')], qty: 1, net_price: -50000 });
      expect(sale.statusCode).toBe(422);
      expect(sale.json()).toEqual({ error: 'price_out_of_bounds', message: 'A single put’s premium is at most its strike, $4,000.00 a share: $50,000.00 is not.' });
    });
    expect(await portfolioOf(user.client)).toMatchObject({ cash: (10_000_000 - Math.round(modeledAsk(put) * 100 * 100)) / 100 });
  });

  it('a call without a stored close of its underlying: 422 no_price (nothing bounds it)', async () => {
    const user = await trader();
    await changesNothing(user, async () => {
      const response = await placeOptionsOrder(user.client, { underlying: 'QQQ', legs: [leg('QQQ301218C00400000', 'buy')], qty: 1, net_price: 5 });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ error: 'no_price', message: 'There is no stored close of QQQ to bound what its calls are worth: import its bars first.' });
    });
  });

  it('legitimate closes still work at the model’s prices: a put sold back, a credit spread bought back; each round trip pays the spread', async () => {
    const user = await trader();
    const put = 'SPX301218P04000000';
    const fills: number[] = [];
    const place = async (legs: ReturnType<typeof leg>[], qty: number, limit: number) => {
      clock.advance(1000);
      const response = await placeOptionsOrder(user.client, { underlying: 'SPX', legs, qty, net_price: limit });
      expect(response.statusCode, response.body).toBe(201);
      fills.push(response.json().fill_price * qty * 100);
    };
    await place([leg(put, 'buy')], 2, 4000);
    await place([leg(put, 'sell')], 2, -0.01);
    const spread = [leg('SPX301218P02600000', 'sell'), leg('SPX301218P02500000', 'buy')];
    await place(spread, 1, -0.01);
    await place(spread.map((l) => ({ ...l, side: l.side === 'buy' ? 'sell' : 'buy' })), 1, 99.99);
    const portfolio = await portfolioOf(user.client);
    const paid = Math.round(fills.reduce((sum, amount) => sum + amount, 0) * 100) / 100;
    expect(paid).toBeGreaterThan(0);
    expect(portfolio).toMatchObject({ cash: 100000 - paid, realized_pnl: -paid, options_positions: [], options_structures: [] });
  });

  it('the portfolio shows an options position as one structure: legs, strikes, expiry, the price paid, its risk', async () => {
    const user = await trader();
    const openedAt = clock.now().toISOString();
    const condor = [leg('SPX301218P03900000', 'buy'), leg('SPX301218P04000000', 'sell'), leg('SPX301218C05000000', 'sell'), leg('SPX301218C05150000', 'buy')];
    const opened = await placeOptionsOrder(user.client, { underlying: 'SPX', legs: condor, qty: 2, net_price: -30 });
    expect(opened.statusCode, opened.body).toBe(201);
    // Filled at the modeled credit (at least the 30 asked), which the structure records as its price.
    const credit = -opened.json().fill_price;
    expect(credit).toBeGreaterThanOrEqual(30);
    const portfolio = await portfolioOf(user.client);
    expect(portfolio.options_structures).toEqual([
      {
        id: expect.any(String),
        underlying: 'SPX',
        legs: [
          { symbol: 'SPX301218P03900000', side: 'buy', ratio: 1, right: 'put', strike: 3900, expiry: '2030-12-18' },
          { symbol: 'SPX301218P04000000', side: 'sell', ratio: 1, right: 'put', strike: 4000, expiry: '2030-12-18' },
          { symbol: 'SPX301218C05000000', side: 'sell', ratio: 1, right: 'call', strike: 5000, expiry: '2030-12-18' },
          { symbol: 'SPX301218C05150000', side: 'buy', ratio: 1, right: 'call', strike: 5150, expiry: '2030-12-18' },
        ],
        qty: 2,
        net_price: -credit,
        opened_at: openedAt,
        awaiting_settlement: false,
        // The credit 2 × 100 × credit; the wider wing 150 × 100 × 2 = 30,000 less the credit.
        max_loss: 30000 - Math.round(credit * 200),
        max_gain: Math.round(credit * 200),
        breakevens: [4000 - credit, 5000 + credit],
      },
    ]);
    // The legs per contract as before (the contract's fields), the structure's price no longer split between them in the view.
    expect(portfolio.options_positions.map((p: { symbol: string; qty: number }) => [p.symbol, p.qty])).toEqual([
      ['SPX301218C05000000', -2],
      ['SPX301218C05150000', 2],
      ['SPX301218P03900000', 2],
      ['SPX301218P04000000', -2],
    ]);
    // Half closed by the mirror order: one unit left, at the price first paid.
    clock.advance(1000);
    const half = condor.map((l) => ({ ...l, side: l.side === 'buy' ? 'sell' : 'buy' }));
    expect((await placeOptionsOrder(user.client, { underlying: 'SPX', legs: half, qty: 1, net_price: 149.99 })).statusCode).toBe(201);
    expect((await portfolioOf(user.client)).options_structures).toMatchObject([{ qty: 1, net_price: -credit, max_loss: 15000 - Math.round(credit * 100), max_gain: Math.round(credit * 100) }]);
    // Reset clears them.
    await user.client.post('/api/trade-window/portfolio/reset');
    expect((await portfolioOf(user.client)).options_structures).toEqual([]);
  });

  it('previews an order before it is placed: the modeled bid, ask and volatility, the risk at the price it fills at; the same refusals; nothing stored', async () => {
    const user = await trader();
    const spread = [leg('SPX301218P02600000', 'sell'), leg('SPX301218P02500000', 'buy')];
    await changesNothing(user, async () => {
      const preview = await user.client.post(PREVIEW, { underlying: 'SPX', legs: spread, qty: 3, net_price: -1.35 });
      expect(preview.statusCode, preview.body).toBe(200);
      // The modeled credit, 6.32 a share, is more than the 1.35 asked: it fills at 6.32, and the risk is at that price.
      const modeled = { bid: -9.08, ask: -6.32, mid: -7.7, volatility: expect.closeTo(0.16206, 5) };
      expect(preview.json()).toEqual({ max_loss: 28104, max_gain: 1896, breakevens: [2593.68], modeled: { ...modeled, marketable: true } });
      // A credit of 7 is more than the model gives: not marketable, the risk at the limit.
      const tooMuch = await user.client.post(PREVIEW, { underlying: 'SPX', legs: spread, qty: 1, net_price: -7 });
      expect(tooMuch.json()).toEqual({ max_loss: 9300, max_gain: 700, breakevens: [2593], modeled: { ...modeled, marketable: false } });
      const unmodeled = await user.client.post(PREVIEW, { underlying: 'NDX', legs: [leg('NDX301218P15000000', 'buy')], qty: 1, net_price: 5000 });
      expect(unmodeled.statusCode).toBe(422);
      expect(unmodeled.json().error).toBe('no_price');
      const impossible = await user.client.post(PREVIEW, { underlying: 'SPX', legs: spread, qty: 1, net_price: -150 });
      expect(impossible.statusCode).toBe(422);
      expect(impossible.json()).toEqual({ error: 'price_out_of_bounds', message: 'A vertical spread’s credit must be below its width, $100.00 a share: $150.00 is not.' });
      expect((await user.client.post(PREVIEW, { underlying: 'SPX', legs: [...spread, spread[0]], qty: 1, net_price: -1 })).statusCode).toBe(400);
      expect((await user.client.post(PREVIEW, { underlying: 'SPX', legs: spread, qty: 1, net_price: -1 }, { origin: 'https://evil.example' })).statusCode).toBe(403);
    });
    expect(await orderRows(db(), user.userId)).toEqual([]);
    expect((await app.inject({ method: 'POST', url: PREVIEW, headers: { origin: TEST_ORIGIN }, payload: {} })).statusCode).toBe(401);
  });
});
