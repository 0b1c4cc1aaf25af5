import { formatCount } from '../ui/format';
import { parameterLabel } from './template-parameters';
import type { StrategyTemplate, TemplateParameter } from './types';

/** The most cells the server sweeps (docs/backtesting.md, "Parameter sweeps"); the form refuses more before sending. */
export const MAX_CELLS = 10_000;

/** One varied parameter's range as typed. */
export interface AxisInputs {
  readonly name: string;
  readonly min: string;
  readonly max: string;
  readonly step: string;
}

/** How many values a range sends: the server's rule, min + k·step while ≤ max (with a relative slack of 1e-9). */
export function axisLength(min: number, max: number, step: number): number {
  if (!Number.isFinite(min) || !Number.isFinite(max) || !Number.isFinite(step) || step <= 0 || min > max) return 0;
  return Math.floor((max - min) / step + 1e-9) + 1;
}

/** The values of a range, each rounded to 10 decimals as the server does, so 0.1 steps do not drift. */
export function axisValues(min: number, max: number, step: number): number[] {
  return Array.from({ length: axisLength(min, max, step) }, (_, k) => Number((min + k * step).toFixed(10)));
}

function numbersOf(axis: AxisInputs): { min: number; max: number; step: number } {
  const read = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  return { min: read(axis.min), max: read(axis.max), step: read(axis.step) };
}

/** The cells of the grid as typed (before the server leaves out fast ≥ slow); 0 while a range is incomplete. */
export function cellCount(axes: readonly AxisInputs[]): number {
  return axes.reduce((product, axis) => {
    const { min, max, step } = numbersOf(axis);
    return product * axisLength(min, max, step);
  }, 1);
}

/** A count of cells; past 2^53 (a step of 1e-300) in words, as the server says it, not hundreds of digits. */
function formatCells(total: number): string {
  return total > Number.MAX_SAFE_INTEGER ? `more than ${formatCount(Number.MAX_SAFE_INTEGER)}` : formatCount(total);
}

/** "10 × 4 = 40 cells", or "10 cells" for one parameter. */
export function describeCellCount(axes: readonly AxisInputs[]): string {
  const lengths = axes.map((axis) => {
    const { min, max, step } = numbersOf(axis);
    return axisLength(min, max, step);
  });
  const total = cellCount(axes);
  const cells = `${formatCells(total)} ${total === 1 ? 'cell' : 'cells'}`;
  return lengths.length < 2 ? cells : `${lengths.map(formatCells).join(' × ')} = ${cells}`;
}

/** The most values a default axis gives. */
const DEFAULT_VALUES = 10;
/** Nice steps are these times a power of ten. */
const NICE_MANTISSAS = [1, 2, 2.5, 5] as const;

/**
 * The smallest nice step at least `least`: 1, 2, 2.5 or 5 times a power of ten (…, 0.25, 0.5, 1, 2, 2.5, 5, 10, 20,
 * 25, 50, …); with `whole`, whole numbers only (1, 2, 5, 10, 20, 25, 50, 100, …).
 */
export function niceStep(least: number, whole: boolean): number {
  const floor = whole ? Math.max(1, least) : least;
  if (!(floor > 0 && Number.isFinite(floor))) return 1;
  for (let exponent = Math.floor(Math.log10(floor)) - 1; ; exponent++) {
    for (const mantissa of NICE_MANTISSAS) {
      const step = Number((mantissa * 10 ** exponent).toPrecision(2));
      if (step >= floor * (1 - 1e-12) && (!whole || Number.isInteger(step))) return step;
    }
  }
}

/**
 * At most ten values across the parameter's whole range, each a multiple of a nice step (niceStep), so that the
 * heat map's labels are values a person would choose: fast period 10, 20, …, 100 rather than 2, 12, …, 92.
 * The first value is the first multiple of the step within the bounds, the last the last one.
 */
export function defaultAxis(parameter: TemplateParameter): AxisInputs {
  const whole = parameter.type === 'integer';
  const round = (value: number) => Number(value.toFixed(10));
  let step = niceStep((parameter.max - parameter.min) / DEFAULT_VALUES, whole);
  for (;;) {
    const first = round(Math.ceil(round(parameter.min / step)) * step);
    const last = round(Math.floor(round(parameter.max / step)) * step);
    const count = Math.round((last - first) / step) + 1;
    if (count < 1) return { name: parameter.name, min: String(parameter.min), max: String(parameter.max), step: String(parameter.max - parameter.min || 1) };
    if (count <= DEFAULT_VALUES) return { name: parameter.name, min: String(first), max: String(last), step: String(step) };
    step = niceStep(step * (1 + 1e-9), whole);
  }
}

/** Client-side checks of the ranges, keyed `grid.<name>.min|max|step` and `grid` (the size); the server checks again. */
export function checkAxes(template: StrategyTemplate, axes: readonly AxisInputs[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const axis of axes) {
    const parameter = template.parameters.find((candidate) => candidate.name === axis.name);
    if (!parameter) continue;
    const { min, max, step } = numbersOf(axis);
    const whole = parameter.type === 'integer';
    const inBounds = (value: number) => Number.isFinite(value) && value >= parameter.min && value <= parameter.max && (!whole || Number.isInteger(value));
    const range = `${whole ? 'a whole number' : 'a number'} from ${parameter.min} to ${parameter.max}`;
    const key = `grid.${axis.name}`;
    if (!inBounds(min)) errors[`${key}.min`] = `Enter ${range}.`;
    if (!inBounds(max)) errors[`${key}.max`] = `Enter ${range}.`;
    else if (inBounds(min) && max < min) errors[`${key}.max`] = `The maximum must be at least the minimum (${min}).`;
    if (!Number.isFinite(step) || step <= 0 || (whole && !Number.isInteger(step))) {
      errors[`${key}.step`] = whole ? 'Enter a whole step of 1 or more.' : 'Enter a step above 0.';
    }
  }
  if (axes.length === 2 && axes[0]!.name === axes[1]!.name) errors[`grid.${axes[1]!.name}`] = 'Choose two different parameters.';
  const total = cellCount(axes);
  if (Object.keys(errors).length === 0 && total > MAX_CELLS) {
    errors.grid = `The grid has ${formatCells(total)} cells; at most ${formatCount(MAX_CELLS)}. Widen a step or narrow a range.`;
  }
  return errors;
}

/** `grid` of the sweep request: one `{min, max, step}` per varied parameter. */
export function gridRequest(axes: readonly AxisInputs[]): Record<string, { min: number; max: number; step: number }> {
  return Object.fromEntries(axes.map((axis) => [axis.name, numbersOf(axis)]));
}

/** "Fast period 10, slow period 40". */
export function describeParams(params: Readonly<Record<string, number>>, names: readonly string[]): string {
  const text = names.map((name) => `${parameterLabel(name).toLowerCase()} ${params[name]}`).join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One axis of the heat map: a varied parameter and its values, ascending. */
export interface HeatAxis {
  readonly name: string;
  readonly values: readonly number[];
}

/** Rows × columns of indexes into the answer's `cells`; undefined where the server left a cell out. */
export interface CellGrid {
  readonly rows: HeatAxis | undefined;
  readonly columns: HeatAxis;
  readonly grid: readonly (readonly (number | undefined)[])[];
}

/**
 * The answer's cells laid out as the heat map draws them: rows are the first parameter's values (one row when
 * only one parameter varies), columns the last parameter's. A cell the server left out (fast ≥ slow) is
 * undefined. The values are those sent, with any the answer has besides, so a left-out value keeps its place.
 */
export function cellGrid(
  parameters: readonly string[],
  cells: readonly { params: Readonly<Record<string, number>> }[],
  sent: readonly HeatAxis[],
): CellGrid {
  const axisOf = (name: string): HeatAxis => {
    const values = new Set(sent.find((axis) => axis.name === name)?.values ?? []);
    for (const cell of cells) if (cell.params[name] !== undefined) values.add(cell.params[name]!);
    return { name, values: [...values].sort((a, b) => a - b) };
  };
  const columns = axisOf(parameters[parameters.length - 1]!);
  const rows = parameters.length > 1 ? axisOf(parameters[0]!) : undefined;
  const rowValues = rows?.values ?? [Number.NaN];
  const grid: (number | undefined)[][] = rowValues.map(() => columns.values.map(() => undefined));
  cells.forEach((cell, index) => {
    const row = rows ? rows.values.indexOf(cell.params[rows.name]!) : 0;
    const column = columns.values.indexOf(cell.params[columns.name]!);
    if (row >= 0 && column >= 0) grid[row]![column] = index;
  });
  return { rows, columns, grid };
}
