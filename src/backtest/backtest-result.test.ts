import { describe, expect, it } from 'vitest';
import { expectFiniteNumbers } from '../../test/fixtures/assertions.js';
import { loadSpxBars } from '../../test/fixtures/bar-series.js';
import { STRATEGY_TEMPLATES, defaultParameters, findTemplate, runTemplateBacktest, type BarSeries, type StrategyTemplate } from '../engine/index.js';
import { compareTemplates, comparisonResult, legacyBacktestResult } from './backtest-result.js';

const spx = loadSpxBars();

function legacyJson(bars: BarSeries, template: StrategyTemplate, capital: number): string {
  const run = runTemplateBacktest(bars, template, defaultParameters(template), capital);
  return JSON.stringify(
    legacyBacktestResult({
      symbol: 'SPX',
      strategyName: template.name,
      startDate: '2000-01-01T00:00:00.000Z',
      endDate: '2020-12-31T00:00:00.000Z',
      initialCapital: capital,
      dataFeed: 'delayed_sip',
      dates: bars.dates,
      run,
    }),
  );
}

describe('every template on the SPX series', () => {
  it.each(STRATEGY_TEMPLATES.map((t) => [t.id, t] as const))('%s trades, and its result is finite JSON', (_id, template) => {
    const run = runTemplateBacktest(spx, template, defaultParameters(template), 100_000);
    expect(run.metrics.total_trades).toBeGreaterThan(0);
    expect(run.equity.length).toBe(spx.dates.length);
    expect(run.equity[0]).toBe(100_000);
    expect(run.metrics.final_capital).toBe(run.equity[run.equity.length - 1]);
    const pnl = run.trades.reduce((sum, t) => sum + (t.pnl ?? 0), 0);
    expect(run.metrics.final_capital).toBeCloseTo(100_000 + pnl, 6);
    expectFiniteNumbers(JSON.parse(legacyJson(spx, template, 100_000)));
  });
});

describe('determinism', () => {
  it('gives byte-identical JSON for the same inputs, also from a separately loaded copy of the bars', () => {
    const again = loadSpxBars();
    for (const template of STRATEGY_TEMPLATES) {
      expect(legacyJson(again, template, 12_345.67)).toBe(legacyJson(spx, template, 12_345.67));
    }
    const compare = () => JSON.stringify(compareTemplates(spx, STRATEGY_TEMPLATES, 10_000));
    expect(compare()).toBe(compare());
  });
});

describe('result shaping', () => {
  const template = findTemplate('sma_crossover')!;
  const run = runTemplateBacktest(spx, template, defaultParameters(template), 100_000);

  it('has the contract fields of a legacy backtest result, in order, with plain arrays aligned with dates', () => {
    const result = legacyBacktestResult({
      symbol: 'SPX', strategyName: template.name, startDate: 'a', endDate: 'b',
      initialCapital: 100_000, dataFeed: 'sip', dates: spx.dates, run,
    });
    expect(Object.keys(result)).toEqual([
      'symbol', 'strategy_name', 'start_date', 'end_date', 'initial_capital', 'final_capital', 'data_feed',
      'total_return', 'annualized_return', 'max_drawdown', 'win_rate', 'sharpe_ratio', 'profit_factor',
      'total_trades', 'winning_trades', 'losing_trades', 'avg_profit', 'avg_loss', 'avg_holding_days',
      'dates', 'equity_curve', 'drawdowns', 'trades',
    ]);
    expect(Array.isArray(result.equity_curve)).toBe(true);
    expect(result.equity_curve.length).toBe(result.dates.length);
    expect(result.drawdowns.length).toBe(result.dates.length);
    expect(Object.keys(result.trades[0]!)).toEqual(['date', 'type', 'price', 'shares', 'value', 'pnl', 'return', 'duration']);
    expect(result.trades[0]!.date).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
    expect(result.trades.length).toBe(2 * result.total_trades);
  });

  it('has the contract fields of a comparison, entries without trades or drawdowns', () => {
    const entries = compareTemplates(spx, STRATEGY_TEMPLATES, 100_000);
    const result = comparisonResult({
      symbol: 'SPX', startDate: 'a', endDate: 'b', initialCapital: 100_000, dataFeed: 'delayed_sip',
      dates: spx.dates, strategies: entries,
    });
    expect(Object.keys(result)).toEqual(['symbol', 'start_date', 'end_date', 'initial_capital', 'data_feed', 'dates', 'strategies']);
    expect(result.strategies.map((s) => s.id)).toEqual(STRATEGY_TEMPLATES.map((t) => t.id));
    expect(Object.keys(result.strategies[1]!)).toEqual([
      'id', 'name', 'equity_curve', 'total_return', 'annualized_return', 'sharpe_ratio', 'max_drawdown', 'win_rate',
      'profit_factor', 'total_trades', 'winning_trades', 'losing_trades', 'avg_profit', 'avg_loss', 'avg_holding_days',
    ]);
    expect(result.strategies[1]!.equity_curve).toEqual(Array.from(run.equity));
    expect(result.strategies[1]!.total_trades).toBe(run.metrics.total_trades);
  });
});
