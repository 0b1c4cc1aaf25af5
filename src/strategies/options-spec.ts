import type { OptionsSpec, OptionsStrategyType } from '../engine/options/replay-types.js';
import { isTicker } from '../market/market-terms.js';
import { BadRequest } from '../platform/errors.js';
import type { StrategyType } from '../platform/db/schema.js';
import { MAX_DTE_LIMIT } from './strategies.schema.js';

/** A spread wider than this many dollars is no spread anyone trades (SPX wings are tens of dollars). */
export const MAX_SPREAD_WIDTH = 1000;

const VERTICAL_STRUCTURES = ['put_credit', 'call_credit', 'put_debit', 'call_debit'] as const;
const VERTICAL_KEYS = ['structure', 'short_delta', 'short_otm_pct', 'width', 'dte'];
const CONDOR_KEYS = ['short_delta', 'short_otm_pct', 'wing_width', 'dte'];

export function isOptionsStrategyType(type: StrategyType): type is OptionsStrategyType {
  return type === 'iron_condor' || type === 'vertical_spread';
}

/**
 * An `options_spec` checked against the strategy's type (DESIGN "Options strategies in backtests"): only an
 * iron condor or a vertical spread has one; exactly one of `short_delta` and `short_otm_pct`; widths in dollars
 * (0, 1000]; `dte` a whole number of calendar days 1–3650; no other key. Each problem is a 400
 * `validation_failed` naming its field (`body.options_spec.width`).
 */
export function checkedOptionsSpec(type: StrategyType, spec: unknown): OptionsSpec | null {
  if (spec === null) return null;
  if (!isOptionsStrategyType(type)) {
    throw specError('', `only an iron_condor or vertical_spread strategy has one (this one is ${type}); send null to clear it`);
  }
  if (typeof spec !== 'object' || Array.isArray(spec)) throw specError('', 'must be an object');
  const fields = spec as Record<string, unknown>;
  const keys = type === 'iron_condor' ? CONDOR_KEYS : VERTICAL_KEYS;
  for (const key of Object.keys(fields)) {
    if (!keys.includes(key)) throw specError(`.${key}`, `is not a field of a ${type} spec (${keys.join(', ')})`);
  }
  if (type === 'vertical_spread' && !VERTICAL_STRUCTURES.includes(fields.structure as never)) {
    throw specError('.structure', `must be one of ${VERTICAL_STRUCTURES.join(', ')}`);
  }
  checkShortTarget(fields, type === 'iron_condor' ? 0.5 : 1);
  checkWidth(fields, type === 'iron_condor' ? 'wing_width' : 'width');
  const dte = fields.dte;
  if (typeof dte !== 'number' || !Number.isInteger(dte) || dte < 1 || dte > MAX_DTE_LIMIT) {
    throw specError('.dte', `must be a whole number of calendar days from 1 to ${MAX_DTE_LIMIT}`);
  }
  // Rebuilt in a fixed key order, so the stored JSON (and a cache key built from it) does not depend on the client's order.
  const target = fields.short_delta !== undefined ? { short_delta: fields.short_delta as number } : { short_otm_pct: fields.short_otm_pct as number };
  if (type === 'iron_condor') return { ...target, wing_width: fields.wing_width as number, dte };
  return { structure: fields.structure as (typeof VERTICAL_STRUCTURES)[number], ...target, width: fields.width as number, dte };
}

function checkShortTarget(fields: Record<string, unknown>, maxDelta: number): void {
  const given = ['short_delta', 'short_otm_pct'].filter((key) => fields[key] !== undefined);
  if (given.length !== 1) throw specError('', 'needs exactly one of short_delta and short_otm_pct');
  const key = given[0]!;
  const value = fields[key];
  const max = key === 'short_delta' ? maxDelta : 1;
  if (typeof value !== 'number' || !(value > 0 && value < max)) {
    throw specError(`.${key}`, `must be a number greater than 0 and less than ${max}`);
  }
}

function checkWidth(fields: Record<string, unknown>, key: 'width' | 'wing_width'): void {
  const value = fields[key];
  if (typeof value !== 'number' || !(value > 0 && value <= MAX_SPREAD_WIDTH)) {
    throw specError(`.${key}`, `must be a number of dollars greater than 0 and at most ${MAX_SPREAD_WIDTH}`);
  }
}

/** A volatility index's ticker (e.g. VIX), only on an options strategy; null: realized 20-day volatility. */
export function checkedVolatilitySymbol(type: StrategyType, symbol: string | null): string | null {
  if (symbol === null || symbol.trim() === '') return null;
  if (!isOptionsStrategyType(type)) {
    throw fieldError('body.volatility_symbol', `only an iron_condor or vertical_spread strategy has one (this one is ${type}); send null to clear it`);
  }
  if (!isTicker(symbol)) throw fieldError('body.volatility_symbol', `"${symbol}" is not an upper-case ticker such as VIX`);
  return symbol;
}

/** The stored JSON text read back; null when absent. */
export function parseOptionsSpec(text: string | null): OptionsSpec | null {
  return text === null ? null : (JSON.parse(text) as OptionsSpec);
}

function specError(path: string, problem: string): BadRequest {
  return fieldError(`body.options_spec${path}`, problem);
}

function fieldError(field: string, problem: string): BadRequest {
  const name = field.replace(/^body\./, '');
  return new BadRequest('validation_failed', `${name} ${problem}.`, [{ field, message: problem }]);
}
