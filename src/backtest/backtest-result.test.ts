import { describe, expect, it } from 'vitest';
import { expectFiniteNumbers } from '../../test/fixtures/assertions.js';
import { loadSpxBars } from '../../test/fixtures/bar-series.js';
import {
  STRATEGY_TEMPLATES,
  defaultParameters,
  findTemplate,
  fractionArray,
  moneyArray,
  roundFraction,
  roundMoney,
  runTemplateBacktest,
  type BarSeries,
  type StrategyTemplate,
} from '../engine/index.js';
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
    expect(result.strategies[1]!.equity_curve).toEqual(moneyArray(run.equity));
    expect(result.strategies[1]!.total_trades).toBe(run.metrics.total_trades);
  });
});

/** Whether x is written with at most `decimals` digits after the point (as JSON writes it). */
function hasAtMostDecimals(x: number, decimals: number): boolean {
  const [digits, exponent] = String(x).split('e');
  const fraction = digits!.split('.')[1]?.length ?? 0;
  return fraction - Number(exponent ?? 0) <= decimals;
}

describe('output precision (docs/backtesting.md "Output precision")', () => {
  const capital = 12_345.67;
  it.each(STRATEGY_TEMPLATES.map((t) => [t.id, t] as const))('%s: money to the cent, fractions to 8 decimals, prices and counts as they are', (_id, template) => {
    const run = runTemplateBacktest(spx, template, defaultParameters(template), capital);
    const result = JSON.parse(legacyJson(spx, template, capital));
    expect(result.initial_capital).toBe(capital);
    expect(result.equity_curve).toEqual(moneyArray(run.equity));
    expect(result.drawdowns).toEqual(fractionArray(run.drawdowns));
    expect(result.equity_curve.every((x: number) => hasAtMostDecimals(x, 2))).toBe(true);
    expect(result.drawdowns.every((x: number) => hasAtMostDecimals(x, 8))).toBe(true);
    // The metrics come from the unrounded run, rounded the same way.
    const m = run.metrics;
    expect(result.final_capital).toBe(roundMoney(m.final_capital));
    expect(result.final_capital).toBe(result.equity_curve.at(-1));
    expect(result.total_return).toBe(roundFraction(m.total_return));
    expect(result.max_drawdown).toBe(roundFraction(m.max_drawdown));
    expect(result.max_drawdown).toBe(Math.min(...result.drawdowns));
    for (const [field, decimals] of [
      ['annualized_return', 8], ['win_rate', 8], ['sharpe_ratio', 8], ['profit_factor', 8], ['avg_holding_days', 8],
      ['avg_profit', 2], ['avg_loss', 2],
    ] as const) {
      const raw = m[field];
      expect(result[field], field).toBe(raw === null ? null : decimals === 2 ? roundMoney(raw) : roundFraction(raw));
    }
    expect([result.total_trades, result.winning_trades, result.losing_trades]).toEqual([m.total_trades, m.winning_trades, m.losing_trades]);
    run.trades.forEach((t, i) => {
      expect(result.trades[i]).toEqual({
        date: t.date, type: t.type, price: t.price, shares: t.shares, value: roundMoney(t.value),
        pnl: t.pnl === null ? null : roundMoney(t.pnl), return: t.return === null ? null : roundFraction(t.return), duration: t.duration,
      });
    });
  });

  it('rounds the comparison entries the same way', () => {
    const [entry] = compareTemplates(spx, [findTemplate('macd_crossover')!], capital);
    const run = runTemplateBacktest(spx, findTemplate('macd_crossover')!, defaultParameters(findTemplate('macd_crossover')!), capital);
    expect(entry!.equity_curve).toEqual(moneyArray(run.equity));
    expect(entry!.sharpe_ratio).toBe(roundFraction(run.metrics.sharpe_ratio!));
    expect(entry!.avg_profit).toBe(roundMoney(run.metrics.avg_profit!));
  });
});
