import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { loadDemoDataIfEmpty, storeBars } from '../../src/market/bar-store.service.js';
import type { Db } from '../../src/platform/db/database.js';
import type { Insertable } from 'kysely';
import type { StrategiesTable } from '../../src/platform/db/schema.js';
import { signedInAccount } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';

/**
 * POST /api/backtest/run for iron_condor and vertical_spread strategies over HTTP on both dialects: the modeled-price
 * replay of src/engine/options/ on the demo SPX series, its answer's shape and arithmetic, the volatility index, and
 * every refusal particular to options.
 */
const RUN = '/api/backtest/run';
const NOW = '2026-01-05T12:00:00.000Z';
const CONDOR_SPEC = JSON.stringify({ short_delta: 0.16, wing_width: 50, dte: 45 });
const PERIOD = { start_date: '2018-01-01', end_date: '2019-12-31' };

interface Body {
  starting_capital: number;
  final_capital: number;
  dates: string[];
  equity_curve: number[];
  trades: { entry_date: string; pnl: number; qty: number; credit: number; commission?: number; exit_reason: string; legs: { occ_symbol: string; side: string; right: string }[] }[];
  pricing: { model: string; volatility: string; spread: string; rate: number };
  [field: string]: unknown;
}

describeEachDialect('options library backtest HTTP', (database) => {
  let app: App;
  const clock = new ManualClock(NOW);
  const db = (): Db => database().handle.db;
  let alice: HttpClient;
  let aliceId: string;

  async function insertStrategy(values: Partial<Insertable<StrategiesTable>> & Pick<Insertable<StrategiesTable>, 'strategy_type'>): Promise<number> {
    const row = await db()
      .insertInto('strategies')
      .values({ user_id: aliceId, name: 'options', created_at: NOW, updated_at: NOW, ...values } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    await loadDemoDataIfEmpty(db(), clock, app.log);
    // A volatility index from 2018-03-01 on, a bar a week (the days between carry its last close): 20, then 30.
    const weekly = Array.from({ length: 100 }, (_, i) => new Date(Date.parse('2018-03-01T00:00:00Z') + i * 7 * 86_400_000).toISOString().slice(0, 10));
    await storeBars(db(), clock, { symbol: 'VIX', bars: weekly.map((date, i) => ({ date, open: 1, high: 40, low: 1, close: i < 50 ? 20 : 30, volume: 0 })) });
    await storeBars(db(), clock, { symbol: 'AAA', bars: [{ date: '2018-01-02', open: 10, high: 10, low: 10, close: 10, volume: 1 }] });
    alice = new HttpClient(app);
    aliceId = (await signedInAccount(alice, db())).userId;
  });

  afterAll(async () => app?.close());

  const run = (body: unknown) => alice.post(RUN, body);
  function expectError(response: LightMyRequestResponse, status: number, error: string): { message: string; details?: unknown[] } {
    expect({ status: response.statusCode, error: response.json().error }, response.body).toEqual({ status, error });
    return response.json();
  }
  function ok(response: LightMyRequestResponse): Body {
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  it('an options strategy without an options_spec is 422 options_spec_required', async () => {
    for (const type of ['iron_condor', 'vertical_spread'] as const) {
      const id = await insertStrategy({ strategy_type: type, entry_symbol_allowlist: 'SPX' });
      const refused = expectError(await run({ strategy_id: id }), 422, 'options_spec_required');
      expect(refused.message).toContain('options_spec');
    }
  });

  it('replays an iron condor on SPX: four legs a trade, modeled pricing, final capital = start + Σ pnl, costs paid', async () => {
    const id = await insertStrategy({
      strategy_type: 'iron_condor', entry_symbol_allowlist: 'SPX', options_spec: CONDOR_SPEC, exit_profit_target_pct: 0.5, exit_stop_loss_pct: -1, entry_max_position_size: 20_000,
    });
    const body = ok(await run({ strategy_id: id, ...PERIOD, starting_capital: 100_000, costs: { commission_per_contract: 0.65 } }));
    expect(Object.keys(body)).toEqual([
      'strategy_id', 'start_date', 'end_date', 'starting_capital', 'final_capital', 'symbols', 'dates', 'equity_curve', 'drawdowns', 'trades', 'stats',
      'pricing', 'skipped_entries', 'costs', 'costs_paid', 'benchmark', 'alpha', 'beta', 'information_ratio',
    ]);
    expect(body).toMatchObject({ symbols: ['SPX'], start_date: '2018-01-02', end_date: '2019-12-31', benchmark: { symbol: 'SPX' } });
    expect(body.pricing).toEqual({ model: 'black_scholes', volatility: 'realized_20d', spread: expect.stringContaining('5 %'), rate: 0 });
    expect(body.equity_curve).toHaveLength(body.dates.length);
    expect(body.trades.length).toBeGreaterThan(5);
    for (const trade of body.trades) {
      expect(trade.legs.map((leg) => [leg.right, leg.side])).toEqual([['put', 'long'], ['put', 'short'], ['call', 'short'], ['call', 'long']]);
      for (const leg of trade.legs) expect(leg.occ_symbol).toMatch(/^SPX\d{6}[CP]\d{8}$/);
      expect(trade.credit).toBeGreaterThan(0);
      // Four legs, two fills, $0.65 a contract.
      expect(trade.commission).toBeCloseTo(trade.exit_reason === 'expiry' ? 4 * trade.qty * 0.65 : 8 * trade.qty * 0.65, 2);
    }
    // realized_20d needs 21 closes: nothing opens before the 21st bar of the period.
    expect(body.trades[0]!.entry_date >= body.dates[20]!).toBe(true);
    const pnlCents = body.trades.reduce((sum, t) => sum + Math.round(t.pnl * 100), 0);
    expect(Math.round(body.final_capital * 100)).toBe(100_000 * 100 + pnlCents);
    const commissionCents = body.trades.reduce((sum, t) => sum + Math.round(t.commission! * 100), 0);
    expect(Math.round((body.costs_paid as { commission: number }).commission * 100)).toBe(commissionCents);
    expect(body.costs).toMatchObject({ commission_per_contract: 0.65 });
  });

  it('without an execution setting: no commission, no echo and no benchmark; the same request gives the same bytes', async () => {
    const id = await insertStrategy({ strategy_type: 'iron_condor', entry_symbol_allowlist: 'SPX', options_spec: CONDOR_SPEC });
    const first = await run({ strategy_id: id, ...PERIOD });
    const body = ok(first);
    expect(Object.keys(body)).toEqual([
      'strategy_id', 'start_date', 'end_date', 'starting_capital', 'final_capital', 'symbols', 'dates', 'equity_curve', 'drawdowns', 'trades', 'stats',
      'pricing', 'skipped_entries', 'costs_paid',
    ]);
    expect(body.trades[0]).not.toHaveProperty('commission');
    expect((await run({ strategy_id: id, ...PERIOD })).body).toBe(first.body);
  });

  it('report: true adds the report of the options run: months compounding to the total, every trade binned, a separate cache entry', async () => {
    const id = await insertStrategy({ strategy_type: 'iron_condor', entry_symbol_allowlist: 'SPX', options_spec: CONDOR_SPEC, exit_profit_target_pct: 0.5 });
    const plain = ok(await run({ strategy_id: id, ...PERIOD }));
    expect(plain).not.toHaveProperty('report');
    const body = ok(await run({ strategy_id: id, ...PERIOD, report: true }));
    const report = body.report as { monthly_returns: { return: number }[]; trade_returns: { bins: { count: number }[] }; time_in_market: number };
    expect(body.trades).toEqual(plain.trades);
    const compounded = report.monthly_returns.reduce((growth, month) => growth * (1 + month.return), 1) - 1;
    expect(compounded).toBeCloseTo(body.final_capital / body.starting_capital - 1, 4);
    expect(report.monthly_returns).toHaveLength(24);
    expect(report.trade_returns.bins.reduce((sum, bin) => sum + bin.count, 0)).toBe(body.trades.length);
    expect(report.time_in_market).toBeGreaterThan(0);
  });

  it('prices with the volatility_symbol’s close / 100, carried forward, opening nothing before its first bar', async () => {
    const id = await insertStrategy({ strategy_type: 'iron_condor', entry_symbol_allowlist: 'SPX', options_spec: CONDOR_SPEC, volatility_symbol: 'VIX' });
    const withIndex = ok(await run({ strategy_id: id, ...PERIOD }));
    expect(withIndex.pricing.volatility).toBe('VIX');
    // Entered whenever flat (no entry_rule): first on the index's first date, where a σ first exists (realized_20d waits for 21 closes).
    expect(withIndex.trades[0]!.entry_date).toBe('2018-03-01');
    // Each close before it had a signal that found no σ to open with on the next close: said, not silently dropped.
    expect((withIndex.skipped_entries as { no_volatility: number }).no_volatility).toBe(withIndex.dates.filter((d) => d > '2018-01-02' && d < '2018-03-01').length);
    // The index is in the cache key: the same strategy without it prices with realized volatility, a different run.
    await db().updateTable('strategies').set({ volatility_symbol: null }).where('id', '=', id).execute();
    const realized = ok(await run({ strategy_id: id, ...PERIOD }));
    expect(realized.pricing.volatility).toBe('realized_20d');
    expect(realized.trades[0]!.entry_date).not.toBe(withIndex.trades[0]!.entry_date);
  });

  it('an exit_max_dte not below the spec’s dte is 422 exit_max_dte_not_below_dte (every position would close the next day)', async () => {
    const id = await insertStrategy({ strategy_type: 'iron_condor', entry_symbol_allowlist: 'SPX', options_spec: CONDOR_SPEC, exit_max_dte: 45 });
    const refused = expectError(await run({ strategy_id: id, ...PERIOD }), 422, 'exit_max_dte_not_below_dte');
    expect(refused.message).toContain('45');
    await db().updateTable('strategies').set({ exit_max_dte: 44 }).where('id', '=', id).execute();
    ok(await run({ strategy_id: id, ...PERIOD }));
  });

  it('a changed options_spec is a new run (the spec is in the cache key)', async () => {
    const id = await insertStrategy({ strategy_type: 'vertical_spread', entry_symbol_allowlist: 'SPX', options_spec: JSON.stringify({ structure: 'put_credit', short_otm_pct: 0.05, width: 25, dte: 30 }) });
    const first = ok(await run({ strategy_id: id, ...PERIOD }));
    expect(first.trades[0]!.legs.map((leg) => [leg.right, leg.side])).toEqual([['put', 'long'], ['put', 'short']]);
    await db().updateTable('strategies').set({ options_spec: JSON.stringify({ structure: 'call_credit', short_otm_pct: 0.05, width: 25, dte: 30 }) }).where('id', '=', id).execute();
    const second = ok(await run({ strategy_id: id, ...PERIOD }));
    expect(second.trades[0]!.legs.map((leg) => leg.right)).toEqual(['call', 'call']);
  });

  it('prices with the configured OPTIONS_RISK_FREE_RATE, and says so in pricing.rate', async () => {
    const id = await insertStrategy({ strategy_type: 'iron_condor', entry_symbol_allowlist: 'SPX', options_spec: CONDOR_SPEC });
    const atZero = ok(await run({ strategy_id: id, ...PERIOD }));
    const rated = await buildTestApp(database().handle, { clock, env: { OPTIONS_RISK_FREE_RATE: '0.03' } });
    try {
      const body = ok(await alice.on(rated).post(RUN, { strategy_id: id, ...PERIOD }));
      expect(body.pricing.rate).toBe(0.03);
      expect(body.trades[0]!.credit).not.toBe(atZero.trades[0]!.credit);
    } finally {
      await rated.close();
    }
  });

  it('an unknown volatility_symbol is 404 unknown_symbol', async () => {
    const id = await insertStrategy({ strategy_type: 'iron_condor', entry_symbol_allowlist: 'SPX', options_spec: CONDOR_SPEC, volatility_symbol: 'NOPE' });
    const refused = expectError(await run({ strategy_id: id, ...PERIOD }), 404, 'unknown_symbol');
    expect(refused.message).toContain('NOPE');
  });

  it('runs on one underlying: two symbols named, or an allowlist of two without one named, is 422 one_underlying', async () => {
    const open = await insertStrategy({ strategy_type: 'iron_condor', options_spec: CONDOR_SPEC });
    expectError(await run({ strategy_id: open, symbols: ['SPX', 'AAA'] }), 422, 'one_underlying');
    const two = await insertStrategy({ strategy_type: 'iron_condor', entry_symbol_allowlist: 'SPX,AAA', options_spec: CONDOR_SPEC });
    expect(expectError(await run({ strategy_id: two }), 422, 'one_underlying').message).toContain('SPX');
    expect(ok(await run({ strategy_id: two, symbols: ['SPX'], ...PERIOD })).symbols).toEqual(['SPX']);
    expectError(await run({ strategy_id: two, symbols: ['QQQ'] }), 422, 'symbol_not_allowed');
    expectError(await run({ strategy_id: open }), 400, 'symbols_required');
  });

  it('sizing and exits are equity settings: naming either is 422 unsupported_for_options', async () => {
    const id = await insertStrategy({ strategy_type: 'iron_condor', entry_symbol_allowlist: 'SPX', options_spec: CONDOR_SPEC });
    expectError(await run({ strategy_id: id, sizing: { mode: 'all_in' } }), 422, 'unsupported_for_options');
    expectError(await run({ strategy_id: id, exits: { stop_loss_pct: -0.1 } }), 422, 'unsupported_for_options');
  });
});
