/**
 * The report's returns by month as a table: a row per year, a column per month and the year's total, each cell
 * coloured on the heat map's scale (lab/heat-scale.ts) from the worst month to the best.
 */
import { colourAt, scaleOf, scalePosition, type Scale } from '../lab/heat-scale';
import type { MonthlyReturn, YearlyReturn } from './report-types';

export const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

export interface MonthlyRow {
  readonly year: number;
  /** January to December; null for a month outside the period. */
  readonly months: readonly (number | null)[];
  /** The year's return (the months compounded); null when the answer has none for the year. */
  readonly total: number | null;
}

/** Every year from the first to the last with a month, ascending; a year without any month still gets its row. */
export function monthlyGrid(monthly: readonly MonthlyReturn[], yearly: readonly YearlyReturn[]): MonthlyRow[] {
  if (monthly.length === 0 && yearly.length === 0) return [];
  const years = [...monthly.map((entry) => entry.year), ...yearly.map((entry) => entry.year)];
  const first = Math.min(...years);
  const last = Math.max(...years);
  const byYear = new Map<number, (number | null)[]>();
  for (let year = first; year <= last; year++) byYear.set(year, Array<number | null>(12).fill(null));
  for (const entry of monthly) byYear.get(entry.year)![entry.month - 1] = entry.return;
  const totals = new Map(yearly.map((entry) => [entry.year, entry.return]));
  return [...byYear].map(([year, months]) => ({ year, months, total: totals.get(year) ?? null }));
}

/** The scale of the monthly cells: the worst month to the best (the years' totals have their own). */
export function monthlyScale(monthly: readonly MonthlyReturn[]): Scale | undefined {
  return scaleOf(monthly.map((entry) => entry.return));
}

/** A cell's background on the scale and the text colour readable on it (black or white, whichever contrasts more). */
export function heatCell(value: number | null, scale: Scale | undefined): { background: string; color: string } | undefined {
  if (value === null || !scale) return undefined;
  const background = colourAt(scalePosition(value, scale));
  return { background, color: readableOn(background) };
}

function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+/g) ?? ['0', '0', '0']).map((channel) => {
    const c = Number(channel) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** `#000` or `#fff`, whichever has the higher WCAG contrast with the `rgb(r, g, b)` background. */
export function readableOn(background: string): string {
  const l = luminance(background);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000' : '#fff';
}
