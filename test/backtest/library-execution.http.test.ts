import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { storeBars } from '../../src/market/bar-store.service.js';
import type { Db } from '../../src/platform/db/database.js';
import { signedInAccount } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';

/**
 * Issue 25 on POST /api/backtest/run: costs, sizing, the request's exits filling in those a strategy leaves null,
 * the strategy's own `exit_trailing_stop_pct`, and the benchmark (default: the replayed symbol), on both dialects.
 * The strategies have no rules: they enter on the first bar's signal, at the second bar's open.
 */
const RUN = '/api/backtest/run';
const NOW = '2026-01-05T12:00:00.000Z';
type Row = readonly [date: string, open: number, high: number, low: number, close: number];
const bars = (rows: readonly Row[]) => rows.map(([date, open, high, low, close]) => ({ date, open, high, low, close, volume: 1000 }));

// Entered at 01-03's open of 10. Highest close since: 12, then 13 (01-04); 01-05 closes at 11.
const LIB: readonly Row[] = [
  ['2024-01-02', 10, 10, 10, 10],
  ['2024-01-03', 10, 10.5, 9.5, 12],
  ['2024-01-04', 12, 14, 12, 13],
  ['2024-01-05', 13, 13, 10, 11],
  ['2024-01-08', 11, 11, 10, 10.5],
];
// A benchmark without a bar on 01-04 (01-03's close carries) and one that starts too late.
const LBM: readonly Row[] = [['2024-01-02', 20, 20, 20, 20], ['2024-01-03', 22, 22, 22, 22], ['2024-01-05', 24, 24, 24, 24], ['2024-01-08', 25, 25, 25, 25]];
const LATE: readonly Row[] = [['2024-01-04', 5, 5, 5, 5]];

describeEachDialect('library backtest with execution settings', (database) => {
  let app: App;
  const clock = new ManualClock(NOW);
  const db = (): Db => database().handle.db;
  let alice: HttpClient;
  let aliceId: string;
  const ids: Record<string, number> = {};

  async function insertStrategy(values: Record<string, unknown>): Promise<number> {
    const row = await db()
      .insertInto('strategies')
      .values({ user_id: aliceId, name: 'test', created_at: NOW, updated_at: NOW, strategy_type: 'equity_long', entry_symbol_allowlist: 'LIB', ...values } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    for (const [symbol, rows] of [['LIB', LIB], ['LBM', LBM], ['LATE', LATE]] as const) await storeBars(db(), clock, { symbol, bars: bars(rows) });
    alice = new HttpClient(app);
    aliceId = (await signedInAccount(alice, db())).userId;
    ids.plain = await insertStrategy({});
    ids.trailing = await insertStrategy({ exit_trailing_stop_pct: 0.05 });
  });

  afterAll(async () => {
    await app?.close();
  });

  const run = (body: Record<string, unknown>) => alice.post(RUN, { starting_capital: 1000, ...body });

  it('charges costs as computed by hand and exits on the request’s trailing stop where the strategy has none', async () => {
    const response = await run({ strategy_id: ids.plain, costs: { commission_min: 1, slippage_bps: 100 }, exits: { trailing_stop_pct: 0.1 } });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    // Buy at min(high 10.5, 10 × 1.01) = 10.1: the most q with 10.1 q + max(1, 0) ≤ 1,000 is 98 (989.8 + 1); cash 9.2.
    // Highest close 13 (01-04): the stop is 13 × 0.9 = 11.7; 01-05 closes at 11 → sold at 01-08's open, 11 × 0.99 =
    // 10.89 (above the low, 10): 1,067.22 − 1; cash 9.2 + 1,066.22 = 1,075.42. pnl (10.89 − 10.1) × 98 − 1 − 1 = 75.42.
    expect(body.trades).toEqual([
      {
        symbol: 'LIB', side: 'long', entry_date: '2024-01-03', entry_price: 10.1, exit_date: '2024-01-08', exit_price: 10.89, qty: 98, pnl: 75.42,
        return: expect.any(Number), exit_reason: 'trailing_stop', commission: 2,
      },
    ]);
    expect(body.final_capital).toBe(1075.42);
    // 1,000; 9.2 + 98 × 12; 9.2 + 98 × 13; 9.2 + 98 × 11; 1,075.42.
    expect(body.equity_curve).toEqual([1000, 1185.2, 1283.2, 1087.2, 1075.42]);
    // Slippage (10.1 − 10) × 98 + (11 − 10.89) × 98 = 9.8 + 10.78.
    expect(body.costs_paid).toEqual({ commission: 2, slippage: 20.58 });
    expect(body.exits).toEqual({ stop_loss_pct: null, take_profit_pct: null, trailing_stop_pct: 0.1 });
    expect(Object.keys(body).slice(-8)).toEqual(['costs', 'sizing', 'exits', 'costs_paid', 'benchmark', 'alpha', 'beta', 'information_ratio']);
    // The benchmark defaults to the replayed symbol: 1,000 × close / 10.
    expect(body.benchmark).toMatchObject({ symbol: 'LIB', total_return: 0.05, equity_curve: [1000, 1200, 1300, 1100, 1050] });
  });

  it('keeps the strategy’s own trailing stop over the request’s, and acts on it with no setting named', async () => {
    // 5 % below the highest close: 13 × 0.95 = 12.35 > 11 on 01-05 → out at 11 (a 50 % stop would never trigger).
    const named = (await run({ strategy_id: ids.trailing, exits: { trailing_stop_pct: 0.5 } })).json();
    expect(named.trades).toMatchObject([{ exit_date: '2024-01-08', exit_price: 11, exit_reason: 'trailing_stop', commission: 0 }]);
    expect(named.exits).toEqual({ stop_loss_pct: null, take_profit_pct: null, trailing_stop_pct: 0.05 });
    const plain = (await run({ strategy_id: ids.trailing })).json();
    expect(plain.trades).toEqual([
      { symbol: 'LIB', side: 'long', entry_date: '2024-01-03', entry_price: 10, exit_date: '2024-01-08', exit_price: 11, qty: 100, pnl: 100, return: 0.1, exit_reason: 'trailing_stop' },
    ]);
    expect(Object.keys(plain)).toEqual(['strategy_id', 'start_date', 'end_date', 'starting_capital', 'final_capital', 'symbols', 'dates', 'equity_curve', 'drawdowns', 'trades', 'stats']);
  });

  it('sizes by a percent of equity', async () => {
    const body = (await run({ strategy_id: ids.plain, sizing: { mode: 'percent_of_equity', value: 0.5 } })).json();
    // A budget of 0.5 × 1,000: 50 shares at 10.
    expect(body.trades).toMatchObject([{ qty: 50, exit_reason: 'end_of_period' }]);
    expect(body.sizing).toEqual({ mode: 'percent_of_equity', value: 0.5 });
  });

  it('values a named benchmark on the timeline, carrying its last close', async () => {
    const body = (await run({ strategy_id: ids.plain, benchmark: 'LBM' })).json();
    // 1,000 × close / 20: 01-04 has no LBM bar, 01-03's 22 carries.
    expect(body.benchmark).toMatchObject({ symbol: 'LBM', equity_curve: [1000, 1100, 1100, 1200, 1250], total_return: 0.25 });
    expect(body.beta).not.toBeNull();
  });

  it('refuses bad settings before reading the strategy, an unknown benchmark 404 and a late one 422', async () => {
    const expectError = async (body: Record<string, unknown>, status: number, error: string) => {
      const response = await run(body);
      expect({ status: response.statusCode, error: response.json().error }, response.body).toEqual({ status, error });
      return response.json();
    };
    // 400 before the strategy is read: a strategy id nobody has would otherwise be 404.
    expect((await expectError({ strategy_id: 999999, sizing: { mode: 'percent_of_equity', value: 1.5 } }, 400, 'invalid_sizing')).message).toContain('1.5 is above 1');
    await expectError({ strategy_id: 999999, costs: { slippage_bps: 5000 } }, 400, 'validation_failed');
    await expectError({ strategy_id: 999999, exits: { trailing_stop_pct: 1.5 } }, 400, 'validation_failed');
    expect((await expectError({ strategy_id: ids.plain, benchmark: 'NOPE' }, 404, 'unknown_symbol')).details).toEqual([{ field: 'body.benchmark', message: expect.any(String) }]);
    expect((await expectError({ strategy_id: ids.plain, benchmark: 'LATE' }, 422, 'benchmark_too_short')).message).toContain('LATE has bars only from 2024-01-04');
  });
});
