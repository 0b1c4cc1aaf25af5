import fs from 'node:fs';
import fastJsonStringify from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { backtestBodyBytes } from './backtest-body.js';
import { legacyBacktestHead, legacyBacktestResult, type LegacyBacktestInput, type LegacyBacktestResult } from './backtest-result.js';
import { libraryBacktestHead, libraryBacktestResult } from './library-backtest-result.js';
import { BacktestResult } from './backtest.schema.js';
import { LibraryBacktestResult } from './library-backtest.schema.js';
import { defaultParameters, findTemplate, runTemplateBacktest, type BacktestRun } from '../engine/index.js';
import type { LibraryReplay } from '../engine/replay/types.js';
import { barSeriesFromBars } from '../market/bar-series.js';
import { demoDataFile } from '../market/bar-store.service.js';
import { parseBarsCsv } from '../market/csv-bars.js';

type Serializer<T> = (result: T) => string;
const compile = <T>(schema: unknown) => (fastJsonStringify as unknown as (schema: unknown) => Serializer<T>)(schema);

describe('backtestBodyBytes', () => {
  const bySchema = compile<LegacyBacktestResult>(BacktestResult);
  const spx = barSeriesFromBars(parseBarsCsv(fs.readFileSync(demoDataFile(), 'utf8'), 'spx').bars);
  const input = (id: string, capital = 100000): LegacyBacktestInput => {
    const template = findTemplate(id)!;
    return {
      symbol: 'SPX',
      strategyName: `${template.name} "quoted" "dates":[],"equity_curve":[],"drawdowns":[]`,
      startDate: '2000-01-03T00:00:00.000Z',
      endDate: '2020-04-17T00:00:00.000Z',
      initialCapital: capital,
      dataFeed: 'delayed_sip',
      dates: spx.dates,
      run: runTemplateBacktest(spx, template, defaultParameters(template), capital),
    };
  };
  const bytesOf = <T extends LegacyBacktestResult>(i: LegacyBacktestInput, serialize: Serializer<T>) =>
    backtestBodyBytes(legacyBacktestHead(i) as T, { dates: i.dates, equity: i.run.equity, drawdowns: i.run.drawdowns }, serialize).toString('utf8');

  it.each(['sma_crossover', 'buy_and_hold', 'rsi_reversion', 'macd_crossover'])(
    'a legacy body: the same bytes as the schema serializer and as JSON.stringify of the shaped result (%s over SPX)',
    (id) => {
      for (const capital of [100000, 1e12, 0.01]) {
        const i = input(id, capital);
        const json = bytesOf(i, bySchema);
        expect(json).toBe(bySchema(legacyBacktestResult(i)));
        expect(bytesOf(i, JSON.stringify)).toBe(JSON.stringify(legacyBacktestResult(i)));
        expect(JSON.parse(json).equity_curve).toHaveLength(spx.dates.length);
      }
    },
  );

  it('a legacy body with edge numbers in its curves: -0, tiny, huge, 1e21, NaN (null, as JSON.stringify writes it)', () => {
    const i = input('buy_and_hold');
    const equity = Float64Array.from([0, -0, 1e-300, 5e-7, 123.455, 1e21, -1e21, Number.NaN, Infinity, 2 ** 53]);
    const drawdowns = Float64Array.from([-0, -1e-9, -5e-9, -0.123456785, -1, Number.NaN, 0, -4.9e-7, -1e-6, 1e21]);
    const run: BacktestRun = { metrics: i.run.metrics, trades: i.run.trades, equity, drawdowns, costs_paid: i.run.costs_paid, unfilled_entries: 0 };
    const edges = { ...i, dates: i.dates.slice(0, 10), run };
    expect(bytesOf(edges, JSON.stringify)).toBe(JSON.stringify(legacyBacktestResult(edges)));
  });

  it('keeps only the fields the schema lists', () => {
    const i = input('buy_and_hold');
    const head = { ...legacyBacktestHead(i), secret: 'leak' };
    expect(backtestBodyBytes(head, { dates: i.dates, equity: i.run.equity, drawdowns: i.run.drawdowns }, bySchema).toString()).not.toContain('leak');
  });

  it('a library body: the same bytes as its schema serializer and as JSON.stringify', () => {
    const byLibrarySchema = compile<ReturnType<typeof libraryBacktestResult>>(LibraryBacktestResult);
    const replay: LibraryReplay = {
      start_date: '2000-01-03',
      end_date: '2000-01-07',
      starting_capital: 100000,
      final_capital: 100123.456,
      symbols: ['SPX'],
      dates: ['2000-01-03', '2000-01-04', '2000-01-05', '2000-01-06', '2000-01-07'],
      equity_curve: [100000, 99999.995, 100123.456, -0, 1e21],
      drawdowns: [0, -5e-9, -0.000000123, -1e-6, -1],
      trades: [{ symbol: 'SPX', side: 'long', entry_date: '2000-01-04', entry_price: 1.5, exit_date: '2000-01-07', exit_price: 2.675, qty: 3, pnl: 3.525, return: 0.7833333333, exit_reason: 'end_of_period', commission: 0 }],
      stats: { ...libraryBacktestHead(1, emptyStats()).stats },
    };
    for (const serialize of [byLibrarySchema, JSON.stringify]) {
      const body = backtestBodyBytes(libraryBacktestHead(7, replay), { dates: replay.dates, equity: replay.equity_curve, drawdowns: replay.drawdowns }, serialize);
      expect(body.toString('utf8')).toBe(serialize(libraryBacktestResult(7, replay)));
    }
  });
});

function emptyStats(): LibraryReplay {
  return {
    start_date: '',
    end_date: '',
    starting_capital: 1,
    final_capital: 1,
    symbols: [],
    dates: [],
    equity_curve: [],
    drawdowns: [],
    trades: [],
    stats: {
      total_return: 0.123456785,
      annualized_return: null,
      sharpe_ratio: 1.5,
      sortino_ratio: null,
      max_drawdown: -0.2,
      win_rate: 1,
      profit_factor: null,
      total_trades: 1,
      winning_trades: 1,
      losing_trades: 0,
      avg_profit: 3.525,
      avg_loss: null,
      avg_holding_days: 4,
      exposure: 0.8,
    },
  };
}
