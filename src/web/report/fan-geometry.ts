/**
 * The Monte Carlo fan chart's geometry (pure; fan-chart.tsx draws it as SVG): the equity paths' 5th–95th and
 * 25th–75th percentile bands as filled areas, the median as a line, and the run's actual path inside them (the trades
 * in their own order, compounded the same way), over the trade number (0 is the starting capital). The answer gives
 * the points at `trade_numbers`: every trade up to 100, else 101 spread evenly.
 */
import type { PathBands } from './report-types';

export interface FanBox {
  readonly width: number;
  readonly height: number;
  /** Room for the axes' labels: left of the plot and under it. */
  readonly left: number;
  readonly bottom: number;
  readonly top: number;
  readonly right: number;
}

export const FAN_BOX: FanBox = { width: 720, height: 300, left: 76, bottom: 28, top: 10, right: 12 };

export interface FanGeometry {
  /** SVG path data of the closed areas and the lines, in the box's coordinates. */
  readonly outer: string;
  readonly inner: string;
  readonly median: string;
  readonly actual: string;
  readonly yTicks: readonly { readonly value: number; readonly y: number }[];
  readonly xTicks: readonly { readonly value: number; readonly x: number }[];
}

/** The first value with a round step: 1, 2 or 5 × 10ⁿ, about `count` ticks over [min, max]. */
export function niceTicks(min: number, max: number, count: number): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= raw)!;
  const ticks: number[] = [];
  for (let value = Math.ceil(min / step) * step; value <= max + step * 1e-9; value += step) ticks.push(Number(value.toPrecision(12)));
  return ticks;
}

export function fanGeometry(bands: PathBands, box: FanBox = FAN_BOX): FanGeometry {
  const numbers = bands.trade_numbers;
  const lastTrade = numbers[numbers.length - 1] ?? 0;
  const all = [...bands.p5, ...bands.p95, ...bands.actual].filter(Number.isFinite);
  let low = Math.min(...all);
  let high = Math.max(...all);
  if (!(high > low)) {
    low -= 1;
    high += 1;
  }
  const plotWidth = box.width - box.left - box.right;
  const plotHeight = box.height - box.top - box.bottom;
  const xOf = (trade: number) => box.left + (lastTrade <= 0 ? 0 : (trade / lastTrade) * plotWidth);
  const x = (index: number) => xOf(numbers[index] ?? 0);
  const y = (value: number) => box.top + (1 - (value - low) / (high - low)) * plotHeight;
  const at = (index: number, value: number) => `${round(x(index))},${round(y(value))}`;
  const line = (values: readonly number[]) => (values.length === 0 ? '' : `M${values.map((value, index) => at(index, value)).join('L')}`);
  const area = (lower: readonly number[], upper: readonly number[]) => {
    if (lower.length === 0) return '';
    const back = upper.map((value, index) => at(index, value)).reverse();
    return `M${lower.map((value, index) => at(index, value)).join('L')}L${back.join('L')}Z`;
  };
  return {
    outer: area(bands.p5, bands.p95),
    inner: area(bands.p25, bands.p75),
    median: line(bands.p50),
    actual: line(bands.actual),
    yTicks: niceTicks(low, high, 4).map((value) => ({ value, y: round(y(value)) })),
    xTicks: niceTicks(0, lastTrade, 5)
      .filter((value) => Number.isInteger(value))
      .map((value) => ({ value, x: round(xOf(value)) })),
  };
}

const round = (value: number) => Math.round(value * 10) / 10;
