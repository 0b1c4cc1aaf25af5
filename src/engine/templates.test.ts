import { describe, expect, it } from 'vitest';
import { EngineError } from './engine-error.js';
import { TEMPLATE_SIGNALS } from './signals.js';
import { STRATEGY_TEMPLATES, defaultParameters, findTemplate, resolveTemplateParameters } from './templates.js';
import type { StrategyTemplate, SuppliedParameter } from './types.js';

const sma = findTemplate('sma_crossover')!;

function refusal(template: StrategyTemplate, supplied: readonly SuppliedParameter[]): EngineError {
  try {
    resolveTemplateParameters(template, supplied);
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    return error as EngineError;
  }
  return expect.fail('expected the parameters to be refused');
}

describe('the template catalogue', () => {
  it('lists the seven templates in display order, each with rules', () => {
    expect(STRATEGY_TEMPLATES.map((t) => t.id)).toEqual([
      'buy_and_hold',
      'sma_crossover',
      'ema_crossover',
      'rsi_reversion',
      'bollinger_reversion',
      'macd_crossover',
      'donchian_breakout',
    ]);
    for (const template of STRATEGY_TEMPLATES) expect(TEMPLATE_SIGNALS[template.id], template.id).toBeTypeOf('function');
  });

  it('has consistent parameters: default within [min, max], integers where typed so, defaults accepted', () => {
    for (const template of STRATEGY_TEMPLATES) {
      expect(template.name.length).toBeGreaterThan(0);
      expect(template.description.length).toBeGreaterThan(20);
      for (const p of template.parameters) {
        expect(p.min, `${template.id}.${p.name}`).toBeLessThanOrEqual(p.default);
        expect(p.default).toBeLessThanOrEqual(p.max);
        if (p.type === 'integer') expect([p.min, p.default, p.max].every(Number.isInteger)).toBe(true);
        expect(p.description.length).toBeGreaterThan(5);
      }
      expect(resolveTemplateParameters(template, [])).toEqual(defaultParameters(template));
    }
  });

  it('is frozen, so no caller can change the catalogue', () => {
    expect(Object.isFrozen(STRATEGY_TEMPLATES)).toBe(true);
    expect(Object.isFrozen(sma.parameters[0])).toBe(true);
  });

  it('has sma_crossover as DESIGN.md fixes it', () => {
    expect(sma.parameters).toEqual([
      expect.objectContaining({ name: 'fast_period', type: 'integer', default: 10, min: 2, max: 100 }),
      expect.objectContaining({ name: 'slow_period', type: 'integer', default: 30, min: 5, max: 400 }),
    ]);
  });

  it('finds templates by id only', () => {
    expect(findTemplate('macd_crossover')?.name).toBe('MACD Crossover');
    expect(findTemplate('nope')).toBeUndefined();
    expect(findTemplate('toString')).toBeUndefined();
  });
});

describe('resolveTemplateParameters', () => {
  it('fills defaults and keeps supplied values', () => {
    expect(resolveTemplateParameters(sma, [{ name: 'slow_period', value: 50 }])).toEqual({ fast_period: 10, slow_period: 50 });
    expect(resolveTemplateParameters(findTemplate('rsi_reversion')!, [{ name: 'oversold', value: 25.5 }])).toEqual({
      period: 14,
      oversold: 25.5,
      overbought: 70,
    });
  });

  it('accepts the bounds themselves', () => {
    expect(resolveTemplateParameters(sma, [{ name: 'fast_period', value: 2 }, { name: 'slow_period', value: 400 }])).toEqual({
      fast_period: 2,
      slow_period: 400,
    });
  });

  it.each<[string, StrategyTemplate, SuppliedParameter[], RegExp]>([
    ['an unknown name', sma, [{ name: 'period', value: 5 }], /Unknown parameter "period".*allowed: fast_period, slow_period/],
    ['any name for a template without parameters', findTemplate('buy_and_hold')!, [{ name: 'x', value: 1 }], /allowed: none/],
    ['a name given twice', sma, [{ name: 'fast_period', value: 5 }, { name: 'fast_period', value: 6 }], /more than once/],
    ['a fraction for an integer', sma, [{ name: 'fast_period', value: 10.5 }], /"fast_period" must be an integer between 2 and 100; got 10.5/],
    ['a string', sma, [{ name: 'fast_period', value: '10' as unknown as number }], /"fast_period" must be an integer between 2 and 100; got "10"/],
    ['NaN', findTemplate('rsi_reversion')!, [{ name: 'oversold', value: NaN }], /"oversold" must be a number between 1 and 50/],
    ['Infinity', sma, [{ name: 'slow_period', value: Infinity }], /"slow_period" must be an integer between 5 and 400/],
    ['a value below min', sma, [{ name: 'fast_period', value: 1 }], /"fast_period" must be an integer between 2 and 100; got 1\./],
    ['a value above max', sma, [{ name: 'slow_period', value: 401 }], /"slow_period" must be an integer between 5 and 400; got 401/],
    ['fast equal to slow', sma, [{ name: 'fast_period', value: 30 }], /"fast_period" \(30\) must be below "slow_period" \(30\)/],
    ['fast above the default slow', sma, [{ name: 'fast_period', value: 50 }], /"fast_period" \(50\) must be below "slow_period" \(30\)/],
    ['ema fast above slow', findTemplate('ema_crossover')!, [{ name: 'fast_period', value: 40 }, { name: 'slow_period', value: 20 }], /must be below/],
    ['macd fast equal to slow', findTemplate('macd_crossover')!, [{ name: 'fast_period', value: 26 }], /must be below/],
    ['rsi oversold equal to overbought', findTemplate('rsi_reversion')!, [{ name: 'oversold', value: 50 }, { name: 'overbought', value: 50 }], /"oversold" \(50\) must be below "overbought" \(50\)/],
  ])('refuses %s with invalid_parameter naming it (a 400 in the API: engine-refusal.test.ts)', (_case, template, supplied, message) => {
    const error = refusal(template, supplied);
    expect(error.code).toBe('invalid_parameter');
    expect(error.message).toMatch(message);
    expect(error.details?.[0]?.field).toMatch(/^strategy_params\./);
  });
});
