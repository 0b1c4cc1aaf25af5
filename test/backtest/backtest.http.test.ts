import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { loadDemoDataIfEmpty, storeBars } from '../../src/market/bar-store.service.js';
import { STRATEGY_TEMPLATES } from '../../src/engine/index.js';
import { buildTestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { ManualClock } from '../helpers/clock.js';

const SPX_2000_2020 = {
  symbol: 'SPX',
  strategy: 'sma_crossover',
  start_date: '2000-01-01',
  end_date: '2020-12-31',
  initial_capital: 100000,
};

/** The stored symbols as GET /api/symbols lists them: with their source and the dates their bars span. */
const SPX_ENTRY = { symbol: 'SPX', name: 'S&P 500 Index', stored: true, source: 'demo', first_date: '2000-01-03', last_date: '2020-04-17' };
// (A test below stores SPY's bar of 2024-01-03 too.)
const SPY_ENTRY = { symbol: 'SPY', name: 'SPDR S&P 500 ETF Trust', stored: true, source: 'import', first_date: '2024-01-02', last_date: expect.stringMatching(/^2024-01-0[23]$/) };

describeEachDialect('legacy backtest HTTP', (db) => {
  let app: App;
  const clock = new ManualClock('2026-01-05T12:00:00.000Z');

  beforeAll(async () => {
    app = await buildTestApp(db().handle, { clock });
    await loadDemoDataIfEmpty(db().handle.db, clock, app.log);
    await storeBars(db().handle.db, clock, {
      symbol: 'SPY',
      name: 'SPDR S&P 500 ETF Trust',
      bars: [{ date: '2024-01-02', open: 470, high: 475, low: 468, close: 472, volume: 1000 }],
    });
  });

  afterAll(async () => {
    await app.close();
  });

  const backtest = (body: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/backtest', payload: body });
  const compare = (body: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/compare-strategies', payload: body });

  it('runs sma_crossover over SPX 2000–2020 with every field of the contract, arrays aligned with dates', async () => {
    const response = await backtest({ ...SPX_2000_2020, strategy_params: [{ name: 'fast_period', value: 20 }, { name: 'slow_period', value: 50 }] });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual([
      'symbol', 'strategy_name', 'start_date', 'end_date', 'initial_capital', 'final_capital', 'data_feed',
      'total_return', 'annualized_return', 'max_drawdown', 'win_rate', 'sharpe_ratio', 'profit_factor',
      'total_trades', 'winning_trades', 'losing_trades', 'avg_profit', 'avg_loss', 'avg_holding_days',
      'dates', 'equity_curve', 'drawdowns', 'trades',
    ]);
    expect(body).toMatchObject({
      symbol: 'SPX',
      strategy_name: 'SMA Crossover',
      start_date: '2000-01-03T00:00:00.000Z',
      end_date: '2020-04-17T00:00:00.000Z',
      initial_capital: 100000,
      data_feed: 'delayed_sip',
    });
    expect(body.dates).toHaveLength(5105);
    expect(body.dates[0]).toBe('2000-01-03');
    expect(body.equity_curve).toHaveLength(5105);
    expect(body.drawdowns).toHaveLength(5105);
    expect(body.equity_curve[0]).toBe(100000);
    expect(body.total_trades).toBeGreaterThan(10);
    expect(body.trades[0]).toEqual({
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/),
      type: 'BUY',
      price: expect.any(Number),
      shares: expect.any(Number),
      value: expect.any(Number),
      pnl: null,
      return: null,
      duration: null,
    });
    expect(body.trades[1]).toMatchObject({ type: 'SELL', pnl: expect.any(Number), return: expect.any(Number), duration: expect.any(Number) });
    expect(body.final_capital).toBe(body.equity_curve.at(-1));
  });

  it('gives byte-identical bodies for the same request', async () => {
    const first = await backtest(SPX_2000_2020);
    const second = await backtest(SPX_2000_2020);
    expect(first.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    const compareBody = { symbol: 'SPX', strategies: ['buy_and_hold', 'rsi_reversion'], start_date: '2010-01-01', end_date: '2012-01-01', initial_capital: 5000 };
    expect((await compare(compareBody)).body).toBe((await compare(compareBody)).body);
  });

  it('computes the same bytes in a fresh process (no response cache), as JSON', async () => {
    const first = await backtest(SPX_2000_2020);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const fresh = await buildTestApp(db().handle, { clock });
    try {
      const again = await fresh.inject({ method: 'POST', url: '/api/backtest', payload: SPX_2000_2020 });
      expect(again.body).toBe(first.body);
    } finally {
      await fresh.close();
    }
  });

  it('never answers from a cached body once any process has changed the bars', async () => {
    const request = { ...SPX_2000_2020, symbol: 'SPY', strategy: 'buy_and_hold', start_date: '2024-01-01', end_date: '2024-12-31' };
    const before = (await backtest(request)).json();
    expect(before.dates).toEqual(['2024-01-02']);
    const comparison = { symbol: 'SPY', strategies: ['buy_and_hold'], start_date: '2024-01-01', end_date: '2024-12-31', initial_capital: 1000 };
    const comparedBefore = await compare(comparison);
    expect(comparedBefore.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(comparedBefore.json().dates).toEqual(['2024-01-02']);
    const other = db().openAnother();
    await storeBars(other.db, clock, {
      symbol: 'SPY',
      bars: [{ date: '2024-01-03', open: 471, high: 480, low: 470, close: 479, volume: 2000 }],
    });
    const after = (await backtest(request)).json();
    expect(after.dates).toEqual(['2024-01-02', '2024-01-03']);
    expect(after.final_capital).not.toBe(before.final_capital);
    expect((await compare(comparison)).json().dates).toEqual(['2024-01-02', '2024-01-03']);
  });

  it('describes the routes in OpenAPI', async () => {
    const spec = (await app.inject({ url: '/openapi.json' })).json();
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/api/backtest', '/api/compare-strategies', '/api/symbols', '/api/templates', '/api/strategies']),
    );
    const result = spec.paths['/api/backtest'].post.responses['200'].content['application/json'].schema;
    expect(Object.keys(result.properties)).toContain('equity_curve');
  });

  it('takes full UTC timestamps as well as dates, and answers with the first and last bar used', async () => {
    const response = await backtest({ ...SPX_2000_2020, start_date: '2019-12-31T00:00:00Z', end_date: '2020-01-10T23:59:59.999Z' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.dates).toEqual(['2019-12-31', '2020-01-02', '2020-01-03', '2020-01-06', '2020-01-07', '2020-01-08', '2020-01-09', '2020-01-10']);
    expect(body.start_date).toBe('2019-12-31T00:00:00.000Z');
    expect(body.end_date).toBe('2020-01-10T00:00:00.000Z');
  });

  it('compares templates over one shared dates array, in the order asked, without trades or drawdowns', async () => {
    const ids = ['sma_crossover', 'buy_and_hold', 'macd_crossover'];
    const response = await compare({ symbol: 'SPX', strategies: ids, start_date: '2015-01-01', end_date: '2016-12-31T00:00:00Z', initial_capital: 10000, data_feed: 'delayed_sip' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual(['symbol', 'start_date', 'end_date', 'initial_capital', 'data_feed', 'dates', 'strategies']);
    expect(body).toMatchObject({ symbol: 'SPX', start_date: '2015-01-02T00:00:00.000Z', end_date: '2016-12-30T00:00:00.000Z', initial_capital: 10000, data_feed: 'delayed_sip' });
    expect(body.strategies.map((s: { id: string }) => s.id)).toEqual(ids);
    for (const entry of body.strategies) {
      expect(Object.keys(entry).sort()).toEqual(
        ['id', 'name', 'equity_curve', 'total_return', 'annualized_return', 'sharpe_ratio', 'max_drawdown', 'win_rate', 'profit_factor',
          'total_trades', 'winning_trades', 'losing_trades', 'avg_profit', 'avg_loss', 'avg_holding_days'].sort(),
      );
      expect(entry.equity_curve).toHaveLength(body.dates.length);
    }
  });

  it('compares every template over the whole SPX series', async () => {
    const response = await compare({ symbol: 'SPX', strategies: STRATEGY_TEMPLATES.map((t) => t.id), start_date: '2000-01-01', end_date: '2020-12-31', initial_capital: 100000 });
    expect(response.statusCode).toBe(200);
    expect(response.json().strategies).toHaveLength(STRATEGY_TEMPLATES.length);
  });

  it.each([
    ['an unknown symbol', { symbol: 'NOPE' }, 404, 'unknown_symbol', 'NOPE'],
    ['a symbol that is not a ticker', { symbol: 'spx;' }, 400, 'invalid_symbol', 'spx;'],
    ['an unknown template', { strategy: 'martingale' }, 404, 'unknown_strategy', 'martingale'],
    ['an unknown parameter', { strategy_params: [{ name: 'period', value: 3 }] }, 400, 'invalid_parameter', 'period'],
    ['a parameter above its max', { strategy_params: [{ name: 'slow_period', value: 401 }] }, 400, 'invalid_parameter', 'slow_period'],
    ['a parameter below its min', { strategy_params: [{ name: 'fast_period', value: 1 }] }, 400, 'invalid_parameter', 'fast_period'],
    ['a fractional integer parameter', { strategy_params: [{ name: 'fast_period', value: 10.5 }] }, 400, 'invalid_parameter', 'fast_period'],
    ['a parameter given as text', { strategy_params: [{ name: 'fast_period', value: '10' }] }, 400, 'validation_failed', 'strategy_params.0.value'],
    ['a parameter given twice', { strategy_params: [{ name: 'fast_period', value: 5 }, { name: 'fast_period', value: 6 }] }, 400, 'invalid_parameter', 'fast_period'],
    ['fast period not below slow', { strategy_params: [{ name: 'fast_period', value: 50 }, { name: 'slow_period', value: 50 }] }, 400, 'invalid_parameter', 'slow_period'],
    ['end before start', { start_date: '2010-01-02', end_date: '2010-01-01' }, 400, 'invalid_period', 'end_date'],
    ['a start date that is not ISO 8601', { start_date: '01/02/2010' }, 400, 'invalid_date', 'start_date'],
    ['an end date that is not a calendar day', { end_date: '2010-02-30' }, 400, 'invalid_date', 'end_date'],
    ['a timestamp without a zone', { start_date: '2010-01-02T00:00:00' }, 400, 'invalid_date', 'start_date'],
    ['a timestamp that its offset carries past year 9999', { end_date: '9999-12-31T23:59:59-23:59' }, 400, 'invalid_date', 'end_date'],
    ['a capital of zero', { initial_capital: 0 }, 400, 'validation_failed', 'initial_capital'],
    ['a negative capital', { initial_capital: -5 }, 400, 'validation_failed', 'initial_capital'],
    ['a capital given as text', { initial_capital: '1000' }, 400, 'validation_failed', 'initial_capital'],
    ['a range with no bars', { start_date: '2021-01-01', end_date: '2021-06-30' }, 422, 'no_bars', '2021-01-01'],
    ['an unknown data feed', { data_feed: 'iex' }, 400, 'unknown_data_feed', 'iex'],
    ['real-time data without a subscription', { data_feed: 'sip' }, 403, 'feed_not_entitled', 'sip'],
    ['a missing field', { strategy: undefined }, 400, 'validation_failed', 'strategy'],
    ['an unknown field', { leverage: 3 }, 400, 'validation_failed', 'leverage'],
  ])('refuses %s', async (_case, change, status, error, named) => {
    const response = await backtest({ ...SPX_2000_2020, ...change });
    expect(response.statusCode).toBe(status);
    const body = response.json();
    expect(body.error).toBe(error);
    expect(`${body.message} ${JSON.stringify(body.details ?? [])}`).toContain(named);
  });

  it.each([
    ['an empty strategies list', { strategies: [] }, 400, 'no_strategies', 'strategies'],
    ['a duplicate in the list', { strategies: ['buy_and_hold', 'sma_crossover', 'buy_and_hold'] }, 400, 'duplicate_strategy', 'buy_and_hold'],
    ['an unknown template in the list', { strategies: ['buy_and_hold', 'nope'] }, 404, 'unknown_strategy', 'nope'],
    ['an unknown symbol', { symbol: 'NOPE' }, 404, 'unknown_symbol', 'NOPE'],
    ['end before start', { end_date: '1999-01-01' }, 400, 'invalid_period', 'end_date'],
    ['a range with no bars', { start_date: '1990-01-01', end_date: '1999-12-31' }, 422, 'no_bars', 'SPX'],
    ['an unknown data feed', { data_feed: 'otc' }, 400, 'unknown_data_feed', 'otc'],
    ['real-time data without a subscription', { data_feed: 'sip' }, 403, 'feed_not_entitled', 'sip'],
    ['a capital of zero', { initial_capital: 0 }, 400, 'validation_failed', 'initial_capital'],
    ['strategy parameters (compare runs defaults)', { strategy_params: [] }, 400, 'validation_failed', 'strategy_params'],
  ])('refuses a comparison with %s', async (_case, change, status, error, named) => {
    const base = { symbol: 'SPX', strategies: ['buy_and_hold', 'sma_crossover'], start_date: '2000-01-01', end_date: '2020-12-31', initial_capital: 1000 };
    const response = await compare({ ...base, ...change });
    expect(response.statusCode).toBe(status);
    const body = response.json();
    expect(body.error).toBe(error);
    expect(`${body.message} ${JSON.stringify(body.details ?? [])}`).toContain(named);
  });

  it('says in plain words that it has no prices for an unknown symbol, and where the API lists those it has', async () => {
    const response = await backtest({ ...SPX_2000_2020, symbol: 'XYZ' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: 'unknown_symbol',
      message: 'We have no prices for XYZ.',
      details: [{ field: 'body.symbol', message: 'has no stored prices; GET /api/symbols lists the symbols we have' }],
    });
  });

  it('says when the strategy signalled but no signal could be filled, with the price of one share', async () => {
    const response = await backtest({ ...SPX_2000_2020, start_date: '2010-01-01', end_date: '2012-12-31', initial_capital: 500 });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.trades).toEqual([]);
    expect(Object.keys(body).at(-1)).toBe('unfilled_signals');
    const unfilled = body.unfilled_signals;
    expect(unfilled).toEqual({ count: expect.any(Number), first_fill_date: expect.stringMatching(/^2010-/), share_price: expect.any(Number), message: expect.any(String) });
    expect(unfilled.count).toBeGreaterThan(3);
    expect(unfilled.share_price).toBeGreaterThan(500);
    const price = unfilled.share_price.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
    expect(unfilled.message).toBe(
      `The strategy signalled ${unfilled.count} times but no signal could be filled: one share of SPX cost $${price} at the first fill, more than the $500.00 capital.`,
    );
    // Enough capital for a share: trades, and no such field.
    const filled = (await backtest({ ...SPX_2000_2020, start_date: '2010-01-01', end_date: '2012-12-31', initial_capital: 5000 })).json();
    expect(filled.trades.length).toBeGreaterThan(0);
    expect(filled).not.toHaveProperty('unfilled_signals');
  });

  it('lists the data feeds this server can serve: without market-data keys only the delayed one', async () => {
    const response = await app.inject({ url: '/api/data-feeds' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([{ id: 'delayed_sip', name: 'Delayed SIP', description: expect.stringContaining('15 minutes') }]);
  });

  it('needs no Origin header (nothing is stored) but counts requests against the rate limit', async () => {
    const response = await backtest({ ...SPX_2000_2020, start_date: '2020-01-01' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['ratelimit-limit']).toBe('120');
    expect(Number(response.headers['ratelimit-remaining'])).toBeLessThan(120);
  });

  it('answers 429 with Retry-After past the per-client limit, counting backtests and comparisons together', async () => {
    // A clock of its own puts its counters in a minute window the other requests of this file did not use.
    const limited = await buildTestApp(db().handle, { clock: new ManualClock('2026-02-01T00:00:00.000Z'), env: { LEGACY_BACKTEST_RATE_LIMIT: '2' } });
    try {
      const body = { ...SPX_2000_2020, start_date: '2020-01-01' };
      expect((await limited.inject({ method: 'POST', url: '/api/backtest', payload: body })).statusCode).toBe(200);
      const compareBody = { symbol: 'SPX', strategies: ['buy_and_hold'], start_date: '2020-01-01', end_date: '2020-02-01', initial_capital: 1000 };
      expect((await limited.inject({ method: 'POST', url: '/api/compare-strategies', payload: compareBody })).statusCode).toBe(200);
      const refused = await limited.inject({ method: 'POST', url: '/api/backtest', payload: body });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: 'rate_limited' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another client prefix has its own allowance.
      const elsewhere = await limited.inject({ method: 'POST', url: '/api/backtest', payload: body, remoteAddress: '198.51.100.7' });
      expect(elsewhere.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('lists the template catalogue at /api/templates and, without a session, at /api/strategies', async () => {
    const templates = (await app.inject({ url: '/api/templates' })).json();
    expect(templates.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining(
      ['buy_and_hold', 'sma_crossover', 'ema_crossover', 'rsi_reversion', 'bollinger_reversion', 'macd_crossover', 'donchian_breakout'],
    ));
    const sma = templates.find((t: { id: string }) => t.id === 'sma_crossover');
    expect(Object.keys(sma)).toEqual(['id', 'name', 'description', 'parameters']);
    expect(sma.parameters[0]).toEqual({ name: 'fast_period', type: 'integer', default: 10, min: 2, max: 100, description: expect.any(String) });
    expect((await app.inject({ url: '/api/strategies' })).json()).toEqual(templates);
  });

  it('finds symbols by ticker prefix or a word of the name, any case, exact ticker first', async () => {
    const search = async (query: string) => (await app.inject({ url: `/api/symbols${query}` })).json();
    expect(await search('?q=s')).toEqual([SPX_ENTRY, SPY_ENTRY]);
    expect(await search('?q=spy')).toEqual([SPY_ENTRY]);
    expect((await search('?q=TRUST')).map((s: { symbol: string }) => s.symbol)).toEqual(['SPY']);
    expect((await search('?q=index')).map((s: { symbol: string }) => s.symbol)).toEqual(['SPX']);
    expect(await search('?q=rust')).toEqual([]);
    expect(await search('?q=%25')).toEqual([]);
    expect(await search('?limit=1')).toHaveLength(1);
    expect(await search('')).toHaveLength(2);
  });

  it('pages symbol search with limit and offset, and gives the total in X-Total-Count', async () => {
    const page = async (query: string) => app.inject({ url: `/api/symbols${query}` });
    const first = await page('?q=s&limit=1');
    expect(first.json()).toEqual([SPX_ENTRY]);
    expect(first.headers['x-total-count']).toBe('2');
    const second = await page('?q=s&limit=1&offset=1');
    expect(second.json()).toEqual([SPY_ENTRY]);
    expect(second.headers['x-total-count']).toBe('2');
    expect((await page('?q=s&offset=2')).json()).toEqual([]);
    expect((await page('?offset=-1')).statusCode).toBe(400);
  });

  it.each(['0', '201', 'ten', '-1'])('refuses limit=%s', async (limit) => {
    const response = await app.inject({ url: `/api/symbols?limit=${limit}` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation_failed', message: expect.stringContaining('limit') });
  });
});
