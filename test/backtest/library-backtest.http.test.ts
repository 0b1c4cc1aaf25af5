import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { storeBars } from '../../src/market/bar-store.service.js';
import type { Db } from '../../src/platform/db/database.js';
import type { StrategiesTable } from '../../src/platform/db/schema.js';
import { signedInAccount } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';

/**
 * POST /api/backtest/run over HTTP on both dialects: the result for hand-made bars of two symbols, the defaults,
 * determinism, and every refusal (flag off, no session, another user's strategy, options types without a spec, symbols outside
 * the allowlist or without bars, malformed requests). Rules here are absent (enter on the first bar), so the
 * expected trades do not depend on the rule grammar.
 */
const RUN = '/api/backtest/run';
const NOW = '2026-01-05T12:00:00.000Z';

type Bar = readonly [date: string, open: number, close: number];
const bars = (rows: readonly Bar[]) =>
  rows.map(([date, open, close]) => ({ date, open, close, high: Math.max(open, close), low: Math.min(open, close), volume: 1000 }));

// AAA and BBB over four days (BBB has no bar on 01-04); a strategy capped at 500 a position, from 1000:
// 01-03 open: AAA floor(500 / 10) = 50 (500), cash 500; BBB floor(min(500, 500) / 20) = 25 (500), cash 0.
// Closes: 01-03 50·11 + 25·21 = 1075; 01-04 50·12 + 25·21 = 1125; 01-05 50·13 + 25·24 = 1250 (both closed at the end).
const AAA: readonly Bar[] = [['2024-01-02', 10, 10], ['2024-01-03', 10, 11], ['2024-01-04', 11, 12], ['2024-01-05', 12, 13]];
const BBB: readonly Bar[] = [['2024-01-02', 20, 20], ['2024-01-03', 20, 21], ['2024-01-05', 22, 24]];
const DDD: readonly Bar[] = [
  ['2024-01-02', 10, 10], ['2024-01-03', 10, 12], ['2024-01-04', 12, 11], ['2024-01-05', 11, 14], ['2024-01-08', 14, 9], ['2024-01-09', 9.5, 10],
];

describeEachDialect('library backtest HTTP', (database) => {
  let app: App;
  let flagOff: App;
  const clock = new ManualClock(NOW);
  const db = (): Db => database().handle.db;
  let alice: HttpClient;
  let bob: HttpClient;
  let aliceId: string;
  const ids: Record<string, number> = {};

  async function insertStrategy(userId: string, values: Partial<StrategiesTable> & Pick<StrategiesTable, 'strategy_type'>): Promise<number> {
    const row = await db()
      .insertInto('strategies')
      .values({ user_id: userId, name: 'test', created_at: NOW, updated_at: NOW, ...values } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    flagOff = await buildTestApp(database().handle, { clock, env: { FLAG_BACKTEST_STRATEGY_LIBRARY: '0' } });
    await storeBars(db(), clock, { symbol: 'AAA', bars: bars(AAA) });
    await storeBars(db(), clock, { symbol: 'BBB', bars: bars(BBB) });
    await storeBars(db(), clock, { symbol: 'CCC', bars: bars([['2023-06-01', 5, 5]]) });
    await storeBars(db(), clock, { symbol: 'DDD', bars: bars(DDD) });
    alice = new HttpClient(app);
    aliceId = (await signedInAccount(alice, db())).userId;
    bob = new HttpClient(app);
    await signedInAccount(bob, db());
    ids.capped = await insertStrategy(aliceId, { strategy_type: 'equity_long', entry_symbol_allowlist: 'AAA,BBB', entry_max_position_size: 500 });
    ids.open = await insertStrategy(aliceId, { strategy_type: 'custom', entry_allowed_sides: 'sell' });
    ids.allowCcc = await insertStrategy(aliceId, { strategy_type: 'equity_long', entry_symbol_allowlist: 'AAA, ccc' });
    ids.rules = await insertStrategy(aliceId, { strategy_type: 'equity_long', entry_rule: 'close > 11', exit_rule: 'close < 10' });
    ids.badRule = await insertStrategy(aliceId, { strategy_type: 'equity_long', entry_rule: 'close >' });
    ids.condor = await insertStrategy(aliceId, { strategy_type: 'iron_condor' });
    ids.spread = await insertStrategy(aliceId, { strategy_type: 'vertical_spread' });
  });

  afterAll(async () => {
    await app?.close();
    await flagOff?.close();
  });

  const run = (client: HttpClient, body: unknown) => client.post(RUN, body);
  function expectError(response: LightMyRequestResponse, status: number, error: string): Record<string, unknown> {
    expect({ status: response.statusCode, error: response.json().error }, response.body).toEqual({ status, error });
    return response.json();
  }

  it('replays two symbols with one shared cash: the DESIGN shape, trades, equity and stats', async () => {
    const response = await run(alice, { strategy_id: ids.capped, starting_capital: 1000 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = response.json();
    expect(Object.keys(body)).toEqual([
      'strategy_id', 'start_date', 'end_date', 'starting_capital', 'final_capital', 'symbols', 'dates', 'equity_curve', 'drawdowns', 'trades', 'stats',
    ]);
    expect(body).toMatchObject({
      strategy_id: ids.capped, start_date: '2024-01-02', end_date: '2024-01-05', starting_capital: 1000, final_capital: 1250,
      symbols: ['AAA', 'BBB'], dates: ['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05'],
      equity_curve: [1000, 1075, 1125, 1250], drawdowns: [0, 0, 0, 0],
    });
    expect(body.trades).toEqual([
      { symbol: 'AAA', side: 'long', entry_date: '2024-01-03', entry_price: 10, exit_date: '2024-01-05', exit_price: 13, qty: 50, pnl: 150, return: 0.3, exit_reason: 'end_of_period' },
      { symbol: 'BBB', side: 'long', entry_date: '2024-01-03', entry_price: 20, exit_date: '2024-01-05', exit_price: 24, qty: 25, pnl: 100, return: 0.2, exit_reason: 'end_of_period' },
    ]);
    expect(Object.keys(body.stats)).toEqual([
      'total_return', 'annualized_return', 'sharpe_ratio', 'sortino_ratio', 'max_drawdown', 'win_rate', 'profit_factor', 'total_trades',
      'winning_trades', 'losing_trades', 'avg_profit', 'avg_loss', 'avg_holding_days', 'exposure',
    ]);
    expect(body.stats).toMatchObject({
      total_return: 0.25, sortino_ratio: null, max_drawdown: 0, win_rate: 1, profit_factor: null, total_trades: 2, winning_trades: 2,
      losing_trades: 0, avg_profit: 125, avg_loss: null, avg_holding_days: 2, exposure: 0.75,
    });
  });

  it('gives byte-identical bodies for the same request, also from a fresh app', async () => {
    const request = { strategy_id: ids.capped, symbols: ['BBB', 'AAA'], start_date: '2024-01-01', end_date: '2024-12-31' };
    const first = await run(alice, request);
    expect(first.statusCode).toBe(200);
    expect((await run(alice, request)).body).toBe(first.body);
    const fresh = await buildTestApp(database().handle, { clock });
    try {
      expect((await run(alice.on(fresh), request)).body).toBe(first.body);
    } finally {
      await fresh.close();
    }
  });

  it('answers a repeat from the response cache, and never a stale body: a changed strategy or new bars are a new run', async () => {
    // EEE: DDD's bars under a symbol of this test's own, since it adds a bar.
    await storeBars(db(), clock, { symbol: 'EEE', bars: bars(DDD) });
    const id = await insertStrategy(aliceId, { strategy_type: 'equity_long', entry_symbol_allowlist: 'EEE' });
    const request = { strategy_id: id, starting_capital: 1000 };
    const first = (await run(alice, request)).json();
    // Enter at open[1] = 10: floor(1000 / 10) = 100 shares, held to the last close, 10.
    expect(first.trades).toMatchObject([{ qty: 100, exit_price: 10, exit_reason: 'end_of_period' }]);
    // A stop loss of −10 % from 10 is 9: the close of 01-08 is exactly 9 → out at open 9.5 on 01-09.
    await db().updateTable('strategies').set({ exit_stop_loss_pct: -0.1 }).where('id', '=', id).execute();
    const stopped = (await run(alice, request)).json();
    expect(stopped.trades).toMatchObject([{ qty: 100, exit_date: '2024-01-09', exit_price: 9.5, exit_reason: 'stop_loss' }]);
    // A new bar for EEE (its bars_version rises): the last close is now 12, and the run says so.
    await storeBars(db(), clock, { symbol: 'EEE', bars: bars([['2024-01-10', 10, 12]]) });
    await db().updateTable('strategies').set({ exit_stop_loss_pct: null }).where('id', '=', id).execute();
    const extended = (await run(alice, request)).json();
    expect(extended).toMatchObject({ end_date: '2024-01-10', trades: [{ exit_date: '2024-01-10', exit_price: 12 }] });
  });

  it('defaults: the allowlist\'s symbols, all stored bars, 100,000 of capital; a period narrows the dates', async () => {
    const all = (await run(alice, { strategy_id: ids.capped })).json();
    expect(all).toMatchObject({ starting_capital: 100000, symbols: ['AAA', 'BBB'], start_date: '2024-01-02', end_date: '2024-01-05' });
    const narrowed = await run(alice, { strategy_id: ids.capped, symbols: ['AAA'], start_date: '2024-01-03', end_date: '2024-01-04' });
    expect(narrowed.json()).toMatchObject({ symbols: ['AAA'], dates: ['2024-01-03', '2024-01-04'] });
  });

  it('a custom strategy that may only sell is replayed short; without an allowlist any named symbol is allowed', async () => {
    const body = (await run(alice, { strategy_id: ids.open, symbols: ['AAA'], starting_capital: 1000 })).json();
    // SHORT floor(1000 / 10) = 100 at 10, covered at the last close 13: pnl 100 × (10 − 13) = −300.
    expect(body.trades).toEqual([
      { symbol: 'AAA', side: 'short', entry_date: '2024-01-03', entry_price: 10, exit_date: '2024-01-05', exit_price: 13, qty: 100, pnl: -300, return: -0.3, exit_reason: 'end_of_period' },
    ]);
    expect(body.final_capital).toBe(700);
  });

  it('evaluates entry_rule and exit_rule on each symbol\'s bars', async () => {
    const body = (await run(alice, { strategy_id: ids.rules, symbols: ['DDD'], starting_capital: 1000 })).json();
    // 01-03 close 12 > 11 → BUY open 01-04 = 12: floor(1000 / 12) = 83 (996), cash 4. 01-05 close 14: no exit.
    // 01-08 close 9 < 10 → SELL open 01-09 = 9.5: 788.5, cash 792.5; pnl 83 × (9.5 − 12) = −207.5.
    expect(body.trades).toEqual([
      { symbol: 'DDD', side: 'long', entry_date: '2024-01-04', entry_price: 12, exit_date: '2024-01-09', exit_price: 9.5, qty: 83, pnl: -207.5, return: -0.20833333, exit_reason: 'exit_rule' },
    ]);
    expect(body.equity_curve).toEqual([1000, 1000, 4 + 83 * 11, 4 + 83 * 14, 4 + 83 * 9, 792.5]);
  });

  it('a changed rule over the same bars is evaluated again (signals are kept per bars and rules, not per bars)', async () => {
    const id = await insertStrategy(aliceId, { strategy_type: 'equity_long', entry_rule: 'close > 11', exit_rule: 'close < 10' });
    const request = { strategy_id: id, symbols: ['DDD'], starting_capital: 1000 };
    expect((await run(alice, request)).json().trades).toMatchObject([{ entry_date: '2024-01-04', entry_price: 12, qty: 83 }]);
    // Only the 01-05 close (14) is above 13 → BUY open 01-08 = 14: floor(1000 / 14) = 71; 01-08 close 9 < 10 → SELL 01-09.
    await db().updateTable('strategies').set({ entry_rule: 'close > 13' }).where('id', '=', id).execute();
    expect((await run(alice, request)).json().trades).toMatchObject([
      { entry_date: '2024-01-08', entry_price: 14, qty: 71, exit_date: '2024-01-09', exit_price: 9.5, exit_reason: 'exit_rule' },
    ]);
  });

  it('a stored rule that does not compile answers 422 invalid_rule', async () => {
    const refused = expectError(await run(alice, { strategy_id: ids.badRule, symbols: ['AAA'] }), 422, 'invalid_rule');
    expect(refused.message).toMatch(/entry_rule does not compile: column \d+: /);
  });

  it('refuses with the flag off (404 feature_disabled), the route still in OpenAPI', async () => {
    expectError(await run(alice.on(flagOff), { strategy_id: ids.capped }), 404, 'feature_disabled');
    expectError(await run(new HttpClient(flagOff), { strategy_id: ids.capped }), 404, 'feature_disabled');
    const spec = (await flagOff.inject({ url: '/openapi.json' })).json();
    expect(spec.paths['/api/backtest/run']?.post).toBeDefined();
  });

  it('needs a session (401) and the Origin check (403)', async () => {
    expectError(await run(new HttpClient(app), { strategy_id: ids.capped }), 401, 'unauthenticated');
    // The session is checked before the body, so a caller without one learns nothing about the fields.
    expectError(await run(new HttpClient(app), { strategy_id: 'x', bogus: 1 }), 401, 'unauthenticated');
    expectError(await alice.post(RUN, { strategy_id: ids.capped }, { origin: 'https://evil.example' }), 403, 'origin_mismatch');
  });

  it("user B cannot backtest user A's strategy: 404 not_found, like a strategy that does not exist", async () => {
    const refused = expectError(await run(bob, { strategy_id: ids.capped }), 404, 'not_found');
    const missing = expectError(await run(bob, { strategy_id: 999_999 }), 404, 'not_found');
    expect(refused.message).toBe(String(missing.message).replace('999999', String(ids.capped)));
  });

  it('is rate-limited per user (429 rate_limited with Retry-After)', async () => {
    const limited = await buildTestApp(database().handle, { clock, env: { LEGACY_BACKTEST_RATE_LIMIT: '2' } });
    try {
      const carol = new HttpClient(limited);
      const carolId = (await signedInAccount(carol, db())).userId;
      const own = await insertStrategy(carolId, { strategy_type: 'equity_long' });
      for (let i = 0; i < 2; i++) expect((await run(carol, { strategy_id: own, symbols: ['AAA'] })).statusCode).toBe(200);
      const refused = await run(carol, { strategy_id: own, symbols: ['AAA'] });
      expectError(refused, 429, 'rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another user from the same client address is counted apart.
      const dave = new HttpClient(limited, { address: carol.address });
      const daveId = (await signedInAccount(dave, db())).userId;
      const daves = await insertStrategy(daveId, { strategy_type: 'equity_long' });
      expect((await run(dave, { strategy_id: daves, symbols: ['AAA'] })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('options strategy types without an options_spec answer 422 options_spec_required (options-backtest.http.test.ts runs them)', async () => {
    expectError(await run(alice, { strategy_id: ids.condor, symbols: ['AAA'] }), 422, 'options_spec_required');
    expectError(await run(alice, { strategy_id: ids.spread, symbols: ['AAA'] }), 422, 'options_spec_required');
  });

  it('a symbol outside the allowlist is 422 symbol_not_allowed naming it; one without bars is 422 no_bars naming it', async () => {
    const outside = expectError(await run(alice, { strategy_id: ids.capped, symbols: ['AAA', 'TSLA'] }), 422, 'symbol_not_allowed');
    expect(outside.message).toMatch(/^TSLA is not in this strategy's entry_symbol_allowlist/);
    // The allowlist is matched without regard to case or spaces: " ccc" allows CCC.
    const noBars = expectError(await run(alice, { strategy_id: ids.allowCcc, start_date: '2024-01-01' }), 422, 'no_bars');
    expect(noBars.message).toMatch(/^CCC has no bars from 2024-01-01 on/);
    const unknown = expectError(await run(alice, { strategy_id: ids.open, symbols: ['ZZZZ'] }), 422, 'no_bars');
    expect(unknown.message).toMatch(/^ZZZZ has no bars/);
  });

  describe('malformed requests are 400', () => {
    const cases: readonly [string, Record<string, unknown>, string][] = [
      ['a date that is not YYYY-MM-DD', { start_date: '2024-13-01' }, 'invalid_date'],
      ['a timestamp instead of a date', { end_date: '2024-01-01T00:00Z' }, 'validation_failed'],
      ['end before start', { start_date: '2024-02-01', end_date: '2024-01-01' }, 'invalid_period'],
      ['zero capital', { starting_capital: 0 }, 'validation_failed'],
      ['negative capital', { starting_capital: -5 }, 'validation_failed'],
      ['capital as text', { starting_capital: 'lots' }, 'validation_failed'],
      ['an unknown field', { leverage: 2 }, 'validation_failed'],
      ['a fractional strategy id', { strategy_id: 1.5 }, 'validation_failed'],
      // Beyond 2^53 − 1 no id exists (nor is one carried exactly); PostgreSQL's bigint would fail on 1e300.
      ['a strategy id above 2^53 − 1', { strategy_id: 9007199254740992 }, 'validation_failed'],
      ['a strategy id of 1e300', { strategy_id: 1e300 }, 'validation_failed'],
      ['a symbol twice', { symbols: ['AAA', 'AAA'] }, 'duplicate_symbol'],
      ['no symbols', { symbols: [] }, 'no_symbols'],
      ['a lower-case ticker', { symbols: ['aaa'] }, 'invalid_symbol'],
      ['more than 20 symbols', { symbols: Array.from({ length: 21 }, (_, i) => `S${i}`) }, 'validation_failed'],
    ];
    it.each(cases)('%s', async (_name, change, error) => {
      expectError(await run(alice, { strategy_id: ids.capped, ...change }), 400, error);
    });

    it('no strategy_id, and no allowlist without symbols', async () => {
      expectError(await run(alice, { symbols: ['AAA'] }), 400, 'validation_failed');
      const required = expectError(await run(alice, { strategy_id: ids.open }), 400, 'symbols_required');
      expect(required.message).toMatch(/name the symbols/);
    });
  });
});
