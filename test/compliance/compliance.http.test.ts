import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { storeBars } from '../../src/market/bar-store.service.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { createStrategy, errorOf, libraryUser, strategyRows, type LibraryUser } from '../strategies/library-kit.js';

const CHECK = '/api/trading/compliance-check';
/** 03:30 UTC on 10 March 2026 is 23:30 on 9 March in New York (EDT since 8 March). */
const LATE_EVENING_NEW_YORK = '2026-03-10T03:30:00.000Z';

describeEachDialect('compliance check over HTTP', (database) => {
  const db = () => database().handle.db;
  const clock = new ManualClock(LATE_EVENING_NEW_YORK);
  let app: App;
  let ann: LibraryUser;
  let equity: Record<string, unknown> & { id: number };
  let spread: Record<string, unknown> & { id: number };

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    ann = await libraryUser(app, db());
    // Stored out of order: the latest close is the newest date's, not the last stored.
    await storeBars(db(), clock, {
      symbol: 'SPY',
      name: 'SPDR S&P 500 ETF Trust',
      bars: [
        { date: '2026-03-06', open: 470, high: 475, low: 468, close: 472, volume: 1000 },
        { date: '2026-03-05', open: 460, high: 465, low: 458, close: 461, volume: 1000 },
      ],
    });
    equity = await createStrategy(ann, {
      name: 'SPY shares',
      strategy_type: 'equity_long',
      entry_symbol_allowlist: 'SPY,QQQ',
      entry_allowed_sides: 'buy',
      entry_max_position_size: 5000,
    });
    spread = await createStrategy(ann, {
      name: 'Put credit spreads',
      strategy_type: 'vertical_spread',
      entry_symbol_allowlist: 'SPY',
      entry_allowed_sides: 'sell',
      entry_max_position_size: 1000,
      credit_min_amount: 1,
      exit_max_dte: 38,
      // The backtest's fields (issue 27): the check reads none of them and answers them in the strategy as stored.
      options_spec: { structure: 'put_credit', short_delta: 0.3, width: 10, dte: 45 },
      volatility_symbol: 'VIX',
    });
  });
  afterAll(async () => app.close());

  const check = (body: Record<string, unknown>) => ann.client.post(CHECK, body);
  const PUT_SPREAD = [
    { symbol: 'SPY260417P00500000', side: 'sell' },
    { symbol: 'SPY260417P00490000', side: 'buy' },
  ];

  it('answers compliant with the full strategy (the library’s serializer) and no violations', async () => {
    const response = await check({ strategy_id: equity.id, symbol: 'SPY', qty: 10, side: 'buy', price: 100, order_type: 'limit' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ compliant: true, strategy: equity, violations: [] });
    expect(Object.keys(response.json())).toEqual(['compliant', 'strategy', 'violations']);
  });

  it('prices an equity order without a price at the latest stored close', async () => {
    expect((await check({ strategy_id: equity.id, symbol: 'SPY', qty: 10, side: 'buy' })).json()).toMatchObject({ compliant: true });
    const over = (await check({ strategy_id: equity.id, symbol: 'SPY', qty: 11, side: 'buy', order_type: 'market' })).json();
    expect(over.violations).toEqual([
      { rule: 'max_position_size', message: 'Position size $5,192.00 (11 × $472.00) exceeds the maximum of $5,000.00.' },
    ]);
    // The request's price wins over the stored close.
    expect((await check({ strategy_id: equity.id, symbol: 'SPY', qty: 11, side: 'buy', price: 400 })).json().compliant).toBe(true);
  });

  it('reports an unknown price when there is neither a price nor a stored close', async () => {
    const body = (await check({ strategy_id: equity.id, symbol: 'QQQ', qty: 1, side: 'buy' })).json();
    expect(body).toMatchObject({ compliant: false });
    expect(body.violations).toEqual([
      {
        rule: 'max_position_size',
        message: 'The price is unknown (no price in the request and no stored close for QQQ), so the position size cannot be checked against the maximum of $5,000.00.',
      },
    ]);
  });

  it('counts days to expiry from the New York date: 39 days on the evening of 9 March, 38 after midnight', async () => {
    const trade = { strategy_id: spread.id, symbol: 'SPY', qty: 2, side: 'sell', price: 1.25, legs: PUT_SPREAD };
    const evening = (await check(trade)).json();
    expect(evening.violations).toEqual([
      { rule: 'max_dte', message: 'Leg SPY260417P00500000 expires on 2026-04-17, in 39 days; the strategy allows at most 38.' },
    ]);
    clock.set('2026-03-10T04:00:00.000Z');
    try {
      expect((await check(trade)).json()).toMatchObject({ compliant: true, violations: [] });
    } finally {
      clock.set(LATE_EVENING_NEW_YORK);
    }
  });

  it('never prices an options order at the underlying’s close: without a price both price rules say so', async () => {
    const body = (await check({ strategy_id: spread.id, symbol: 'SPY', qty: 1, side: 'sell', legs: [{ symbol: 'SPY260410P00500000', side: 'sell' }, { symbol: 'SPY260410P00490000', side: 'buy' }] })).json();
    expect(body.violations).toEqual([
      {
        rule: 'max_position_size',
        message: 'The price is unknown (an options order has no stored price; give its net price per share), so the position size cannot be checked against the maximum of $1,000.00.',
      },
      { rule: 'min_credit', message: "The net credit is unknown: give the order's net price per share (at least $1.00)." },
    ]);
    // A strategy with an options_spec and a volatility_symbol is checked as before, and answered whole.
    expect(body.strategy).toEqual(spread);
    expect(body.strategy).toMatchObject({ options_spec: { structure: 'put_credit' }, volatility_symbol: 'VIX' });
  });

  it('returns several violations at once, in the rules’ order', async () => {
    await ann.client.request('PATCH', `/api/strategies/${spread.id}`, { is_active: false });
    try {
      const body = (await check({ strategy_id: spread.id, symbol: 'QQQ', qty: 10, side: 'buy', price: 0.5, legs: [{ symbol: 'QQQ260417C00500000', side: 'buy' }] })).json();
      expect(body.compliant).toBe(false);
      expect(body.strategy).toMatchObject({ id: spread.id, is_active: false });
      expect(body.violations).toEqual([
        { rule: 'strategy_active', message: 'The strategy is not active; activate it before trading with it.' },
        { rule: 'symbol_allowed', message: "QQQ is not in the strategy's allowlist (SPY)." },
        { rule: 'side_allowed', message: 'The strategy allows only sell orders; this is a buy.' },
        { rule: 'leg_structure', message: 'A vertical spread has 2 legs; this order has 1.' },
        { rule: 'max_dte', message: 'Leg QQQ260417C00500000 expires on 2026-04-17, in 39 days; the strategy allows at most 38.' },
        { rule: 'min_credit', message: 'A buy pays a net debit; the strategy needs a net credit of at least $1.00 per share.' },
      ]);
    } finally {
      await ann.client.request('PATCH', `/api/strategies/${spread.id}`, { is_active: true });
    }
  });

  it.each([
    ['no strategy_id', { strategy_id: undefined }, 'validation_failed', 'body.strategy_id'],
    ['a strategy_id given as text', { strategy_id: '1' }, 'validation_failed', 'body.strategy_id'],
    ['a strategy_id above 2^53 − 1', { strategy_id: 9007199254740992 }, 'validation_failed', 'body.strategy_id'],
    ['no symbol', { symbol: undefined }, 'validation_failed', 'body.symbol'],
    ['a lower-case symbol', { symbol: 'spy' }, 'invalid_symbol', 'body.symbol'],
    ['a symbol that is not a ticker', { symbol: 'SPY;DROP' }, 'invalid_symbol', 'body.symbol'],
    ['no qty', { qty: undefined }, 'validation_failed', 'body.qty'],
    ['a zero qty', { qty: 0 }, 'validation_failed', 'body.qty'],
    ['a negative qty', { qty: -5 }, 'validation_failed', 'body.qty'],
    ['a fractional qty', { qty: 1.5 }, 'validation_failed', 'body.qty'],
    ['no side', { side: undefined }, 'validation_failed', 'body.side'],
    ['a bad side', { side: 'short' }, 'validation_failed', 'body.side'],
    ['a zero price', { price: 0 }, 'validation_failed', 'body.price'],
    ['a null price', { price: null }, 'validation_failed', 'body.price'],
    ['a bad order type', { order_type: 'stop' }, 'validation_failed', 'body.order_type'],
    ['a limit order without a price', { order_type: 'limit' }, 'validation_failed', 'body.price'],
    ['a malformed OCC symbol', { legs: [{ symbol: 'SPY261318C00450000', side: 'sell' }] }, 'invalid_option_symbol', 'body.legs.0.symbol'],
    ['a leg that is a ticker', { legs: [PUT_SPREAD[0], { symbol: 'SPY', side: 'buy' }] }, 'invalid_option_symbol', 'body.legs.1.symbol'],
    ['a leg without a side', { legs: [{ symbol: 'SPY260417P00500000' }] }, 'validation_failed', 'body.legs.0.side'],
    ['an unknown field in a leg', { legs: [{ ...PUT_SPREAD[0], ratio: 2 }] }, 'validation_failed', 'body.legs.0.ratio'],
    ['more than 8 legs', { legs: Array.from({ length: 9 }, () => PUT_SPREAD[0]) }, 'validation_failed', 'body.legs'],
    ['an unknown field', { account: 'margin' }, 'validation_failed', 'body.account'],
  ])('refuses %s with 400 (the request’s own input is no violation)', async (_case, change, error, field) => {
    const before = await strategyRows(db());
    const response = await check({ strategy_id: equity.id, symbol: 'SPY', qty: 1, side: 'buy', ...change });
    expect(errorOf(response)).toMatchObject({ status: 400, error });
    expect(errorOf(response).text).toContain(field);
    expect(await strategyRows(db())).toEqual(before);
  });

  it('answers 404 for a strategy id nobody has', async () => {
    expect(errorOf(await check({ strategy_id: 987654, symbol: 'SPY', qty: 1, side: 'buy' }))).toMatchObject({ status: 404, error: 'not_found' });
  });

  it('needs a session (401) and our Origin (403 origin_mismatch)', async () => {
    const body = { strategy_id: equity.id, symbol: 'SPY', qty: 1, side: 'buy' };
    const anonymous = await app.inject({ method: 'POST', url: CHECK, headers: { origin: 'http://localhost:3000' }, payload: body });
    expect(errorOf(anonymous)).toMatchObject({ status: 401, error: 'unauthenticated' });
    expect(errorOf(await ann.client.post(CHECK, body, { origin: 'https://evil.example' }))).toMatchObject({ status: 403, error: 'origin_mismatch' });
  });
});
