import fs from 'node:fs';
import fastJsonStringify from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { backtestResultJson } from './backtest-body.js';
import { legacyBacktestResult, type LegacyBacktestResult } from './backtest-result.js';
import { BacktestResult } from './backtest.schema.js';
import { defaultParameters, findTemplate, runTemplateBacktest } from '../engine/index.js';
import { barSeriesFromBars } from '../market/bar-series.js';
import { demoDataFile } from '../market/bar-store.service.js';
import { parseBarsCsv } from '../market/csv-bars.js';

describe('backtestResultJson', () => {
  const bySchema = (fastJsonStringify as unknown as (schema: unknown) => (value: unknown) => string)(BacktestResult);
  const spx = barSeriesFromBars(parseBarsCsv(fs.readFileSync(demoDataFile(), 'utf8'), 'spx').bars);

  it.each(['sma_crossover', 'buy_and_hold', 'rsi_reversion'])('writes the same bytes as the schema serializer (%s over SPX)', (id) => {
    const template = findTemplate(id)!;
    const run = runTemplateBacktest(spx, template, defaultParameters(template), 100000);
    const result = legacyBacktestResult({
      symbol: 'SPX',
      strategyName: `${template.name} "quoted" "dates":[],"equity_curve":[],"drawdowns":[]`,
      startDate: '2000-01-03T00:00:00.000Z',
      endDate: '2020-04-17T00:00:00.000Z',
      initialCapital: 100000,
      dataFeed: 'delayed_sip',
      dates: spx.dates,
      run,
    });
    const json = backtestResultJson(result, bySchema);
    expect(json).toBe(bySchema(result));
    expect(JSON.parse(json).equity_curve).toHaveLength(spx.dates.length);
  });

  it('keeps only the fields the schema lists', () => {
    const template = findTemplate('buy_and_hold')!;
    const run = runTemplateBacktest(spx, template, defaultParameters(template), 1000);
    const result = { ...legacyBacktestResult({ symbol: 'SPX', strategyName: 'x', startDate: 'a', endDate: 'b', initialCapital: 1000, dataFeed: 'sip', dates: spx.dates, run }), secret: 'leak' };
    expect(backtestResultJson(result as LegacyBacktestResult, bySchema)).not.toContain('leak');
  });
});
