/**
 * A sweep's grid: one or two of a template's parameters, each over a range {min, max, step} or a list of values,
 * validated against the template and expanded into the cells to run (docs/backtesting.md "Parameter sweeps").
 */
import { EngineError } from '../engine-error.js';
import { strictlyBelowRules } from '../templates.js';
import type { ResolvedParameters, StrategyTemplate, TemplateParameter } from '../types.js';

export const MAX_SWEEP_CELLS = 10_000;
/** The most values a list axis may give. */
export const MAX_LIST_VALUES = 1000;

export type GridAxisSpec = { readonly min: number; readonly max: number; readonly step: number } | readonly number[];
export type GridSpec = Readonly<Record<string, GridAxisSpec>>;

export interface SweepPlan {
  /** The grid's parameters, in the template's parameter order. */
  readonly parameters: readonly string[];
  /** Each parameter's values, ascending. */
  readonly axes: readonly (readonly number[])[];
  /** The valid cells, row-major (the first axis outer), every other parameter at its default. */
  readonly cells: readonly ResolvedParameters[];
  /** Cells of the grid left out for breaking a cross-parameter rule (fast_period below slow_period, …). */
  readonly skipped: number;
  /** The product of the axis lengths. */
  readonly gridSize: number;
}

/**
 * Validates the grid against the template and lists its cells. Throws EngineError `invalid_grid` (details name the
 * field, `grid.<name>`) for 0 or more than 2 parameters, an unknown name, a bad range or list, a value outside the
 * parameter's bounds or not an integer for an integer parameter, or no valid cell; `grid_too_large` for more than
 * MAX_SWEEP_CELLS cells, counted before the cells that break a cross-parameter rule are left out.
 */
export function planSweep(template: StrategyTemplate, grid: GridSpec): SweepPlan {
  const names = Object.keys(grid);
  if (names.length === 0 || names.length > 2) {
    refuse('grid', `A grid sweeps 1 or 2 parameters; got ${names.length}.`);
  }
  for (const name of names) {
    if (!template.parameters.some((p) => p.name === name)) {
      const allowed = template.parameters.map((p) => p.name).join(', ') || 'none';
      refuse(`grid.${name}`, `Unknown parameter "${name}" for strategy "${template.id}"; allowed: ${allowed}.`);
    }
  }
  const swept = template.parameters.filter((p) => Object.hasOwn(grid, p.name));
  const counts = swept.map((p) => axisLength(p.name, grid[p.name]!));
  const gridSize = counts.reduce((product, count) => product * count, 1);
  if (gridSize > MAX_SWEEP_CELLS) {
    const size = gridSize > Number.MAX_SAFE_INTEGER ? `more than ${Number.MAX_SAFE_INTEGER.toLocaleString('en-US')}` : gridSize.toLocaleString('en-US');
    const message = `The grid has ${size} cells; at most ${MAX_SWEEP_CELLS.toLocaleString('en-US')}.`;
    throw new EngineError('grid_too_large', message, [{ field: 'grid', message }]);
  }
  const axes = swept.map((p) => axisValues(p, grid[p.name]!));

  const defaults: Record<string, number> = {};
  for (const p of template.parameters) defaults[p.name] = p.default;
  const rules = strictlyBelowRules(template.id);
  const cells: ResolvedParameters[] = [];
  let skipped = 0;
  const addCell = (values: readonly number[]): void => {
    const cell: Record<string, number> = {};
    for (const p of template.parameters) {
      const axis = swept.indexOf(p);
      cell[p.name] = axis === -1 ? defaults[p.name]! : values[axis]!;
    }
    if (rules.every(([lower, upper]) => cell[lower]! < cell[upper]!)) cells.push(Object.freeze(cell));
    else skipped++;
  };
  if (axes.length === 1) for (const a of axes[0]!) addCell([a]);
  else for (const a of axes[0]!) for (const b of axes[1]!) addCell([a, b]);

  if (cells.length === 0) {
    const rule = rules.map(([lower, upper]) => `${lower} below ${upper}`).join(', ');
    refuse(`grid.${swept[0]!.name}`, `No cell of the grid is valid (${rule}).`);
  }
  return { parameters: swept.map((p) => p.name), axes, cells, skipped, gridSize };
}

/** How many values the axis gives, after checking its shape (not yet its bounds). */
function axisLength(name: string, spec: GridAxisSpec): number {
  const field = `grid.${name}`;
  if (isList(spec)) {
    if (spec.length < 1 || spec.length > MAX_LIST_VALUES) {
      refuse(field, `The list for "${name}" must have 1 to ${MAX_LIST_VALUES} values; got ${spec.length}.`);
    }
    for (const value of spec) {
      if (typeof value !== 'number' || !Number.isFinite(value)) refuse(field, `The values of "${name}" must be numbers.`);
    }
    if (new Set(spec).size !== spec.length) refuse(field, `The list for "${name}" repeats a value.`);
    return spec.length;
  }
  const { min, max, step } = spec;
  if (![min, max, step].every((v) => typeof v === 'number' && Number.isFinite(v))) {
    refuse(field, `The range of "${name}" needs numbers min, max and step.`);
  }
  if (!(step > 0)) refuse(field, `The step of "${name}" must be above 0; got ${step}.`);
  if (!(min <= max)) refuse(field, `The range of "${name}" must have min <= max; got ${min} > ${max}.`);
  return rangeLength(min, max, step);
}

/**
 * The k = 0, 1, … with min + k·step <= max, give or take a relative 10⁻⁹ of max (so a 0.1 step reaches its max):
 * counted without listing them, so a range of a billion values is refused by its size. Past the cell limit the
 * quotient is the count (the grid is refused whatever its last digit); below it, the quotient's rounding is
 * corrected by the sums themselves, a step or two. No loop runs until a sum moves: past 2^53 k + 1 === k, and a step
 * far below min's precision never moves min + k·step.
 */
function rangeLength(min: number, max: number, step: number): number {
  const limit = Math.min(max + Math.abs(max) * 1e-9, Number.MAX_VALUE);
  const quotient = Math.floor((limit - min) / step);
  if (!(quotient < MAX_SWEEP_CELLS)) return quotient + 1;
  let k = quotient;
  for (let i = 0; i < 2 && min + (k + 1) * step <= limit; i++) k++;
  for (let i = 0; i < 2 && k > 0 && min + k * step > limit; i++) k--;
  return k + 1;
}

/** The axis's values, rounded to 10 decimals (so 0.1 steps do not drift), ascending, each inside the bounds. */
function axisValues(parameter: TemplateParameter, spec: GridAxisSpec): number[] {
  const { name } = parameter;
  const values = isList(spec)
    ? [...spec].sort((a, b) => a - b)
    : Array.from({ length: rangeLength(spec.min, spec.max, spec.step) }, (_, k) => roundTo10(spec.min + k * spec.step));
  const kind = parameter.type === 'integer' ? 'integers' : 'numbers';
  const range = `${kind} between ${parameter.min} and ${parameter.max}`;
  for (const value of values) {
    if (parameter.type === 'integer' && !Number.isInteger(value)) {
      refuse(`grid.${name}`, `The values of "${name}" must be ${range}; got ${value}.`);
    }
    if (value < parameter.min || value > parameter.max) {
      refuse(`grid.${name}`, `The values of "${name}" must be ${range}; got ${value}.`);
    }
  }
  return values;
}

function roundTo10(value: number): number {
  return Number(value.toFixed(10));
}

function isList(spec: GridAxisSpec): spec is readonly number[] {
  return Array.isArray(spec);
}

function refuse(field: string, message: string): never {
  throw new EngineError('invalid_grid', message, [{ field, message }]);
}
