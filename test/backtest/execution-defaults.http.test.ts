import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { loadDemoDataIfEmpty } from '../../src/market/bar-store.service.js';
import { signedInAccount } from '../helpers/accounts.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { HttpClient } from '../helpers/http-client.js';

/**
 * Issue 25: a backtest request that names none of `costs`, `sizing`, `exits`, `benchmark` is answered as before,
 * byte for byte. The SHA-256 and length of each body below were taken from `main` before the execution settings
 * existed (commit da15e8e), by this very file; a change to any byte of any of the four routes' answers fails here.
 */
const NOW = '2026-01-05T12:00:00.000Z';
const SPX = { symbol: 'SPX', start_date: '2000-01-01', end_date: '2020-12-31', initial_capital: 100000 };

const REQUESTS = {
  backtest: { url: '/api/backtest', body: { ...SPX, strategy: 'sma_crossover' } },
  backtestRsi: { url: '/api/backtest', body: { ...SPX, strategy: 'rsi_reversion', initial_capital: 12345.67, strategy_params: [{ name: 'period', value: 10 }] } },
  compare: {
    url: '/api/compare-strategies',
    body: { ...SPX, strategies: ['buy_and_hold', 'sma_crossover', 'ema_crossover', 'rsi_reversion', 'bollinger_reversion', 'macd_crossover', 'donchian_breakout'] },
  },
  sweep: {
    url: '/api/backtest/sweep',
    body: { ...SPX, strategy: 'sma_crossover', grid: { fast_period: { min: 5, max: 20, step: 5 }, slow_period: [30, 50] }, objective: 'sharpe_ratio', validation: { walk_forward: { windows: 3, in_sample_fraction: 0.7 } } },
  },
} as const;

const GOLDEN: Record<keyof typeof REQUESTS | 'library', { sha256: string; bytes: number }> = {
  backtest: { sha256: '42982e5ce875d881fbd276254078e4273b053c3bebae4de12d48a2e06a502e5e', bytes: 198889 },
  backtestRsi: { sha256: '12a71565bf3a6ed436334ff4912eec709751b7fa42fdcc7a83fbd1d5a70f06cc', bytes: 176808 },
  compare: { sha256: '39e074f7068b5c3ccae497be3def1575f53b98c30f964bf32911788d3ea5d588', bytes: 403292 },
  sweep: { sha256: '187b4548ff540ba8974b49161e5b2add44dfafc833aee91e8f6ed10a2f64dffc', bytes: 69588 },
  library: { sha256: '47c8747b612e26cd4c9cbc6cf61bddcb306c85e12089663ad3a35c48f9ab7ce9', bytes: 191572 },
};

const digest = (body: string) => ({ sha256: createHash('sha256').update(body).digest('hex'), bytes: Buffer.byteLength(body) });

describeEachDialect('backtests that name no execution setting', (database) => {
  let app: App;
  let client: HttpClient;
  let strategyId: number;
  const clock = new ManualClock(NOW);

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock, env: { SWEEP_RATE_LIMIT: '1000' } });
    await loadDemoDataIfEmpty(database().handle.db, clock, app.log);
    client = new HttpClient(app);
    await signedInAccount(client, database().handle.db);
    const created = await client.post('/api/strategies', {
      name: 'SMA 10/30',
      strategy_type: 'equity_long',
      entry_symbol_allowlist: 'SPX',
      entry_max_position_size: 60000,
      exit_stop_loss_pct: -0.08,
      exit_profit_target_pct: 0.3,
      entry_rule: 'crosses_above(sma(close, 10), sma(close, 30))',
      exit_rule: 'crosses_below(sma(close, 10), sma(close, 30))',
    });
    expect(created.statusCode, created.body).toBe(201);
    strategyId = created.json().id;
  });

  afterAll(async () => {
    await app.close();
  });

  it.each(Object.keys(REQUESTS) as (keyof typeof REQUESTS)[])('answers %s as before, byte for byte', async (name) => {
    const { url, body } = REQUESTS[name];
    const response = await app.inject({ method: 'POST', url, payload: body });
    expect(response.statusCode).toBe(200);
    expect(digest(response.body)).toEqual(GOLDEN[name]);
  });

  it('answers a library run as before, byte for byte', async () => {
    const response = await client.post('/api/backtest/run', { strategy_id: strategyId, start_date: '2000-01-01', end_date: '2020-12-31', starting_capital: 100000 });
    expect(response.statusCode).toBe(200);
    expect(digest(response.body)).toEqual(GOLDEN.library);
  });
});
