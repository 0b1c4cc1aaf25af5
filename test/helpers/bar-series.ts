/** Bar series for engine tests and benchmarks: the real SPX file shipped by vega-datasets, and seeded random walks. */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BarSeries } from '../../src/backtest/engine/index.js';

const SPX_FILE = fileURLToPath(new URL('../../node_modules/vega-datasets/data/sp500-2000.csv', import.meta.url));

/** The S&P 500 daily series 2000-01-03 … 2020-04-17 (columns date,open,high,low,close,adjclose,volume). */
export function loadSpxBars(): BarSeries {
  const lines = fs.readFileSync(SPX_FILE, 'utf8').trim().split('\n').slice(1);
  const n = lines.length;
  const bars = emptyBars(n);
  lines.forEach((line, i) => {
    const [date, open, high, low, close, , volume] = line.split(',');
    (bars.dates as string[])[i] = date!;
    bars.open[i] = Number(open);
    bars.high[i] = Number(high);
    bars.low[i] = Number(low);
    bars.close[i] = Number(close);
    bars.volume[i] = Number(volume);
  });
  return bars;
}

/**
 * A seeded geometric random walk of `n` daily bars (weekdays from 1990-01-01, so dates stay unique), with
 * open/high/low around the close. Deterministic for a given seed.
 */
export function randomWalkBars(n: number, seed = 1): BarSeries {
  const bars = emptyBars(n);
  const random = mulberry32(seed);
  const dates = bars.dates as string[];
  let day = Date.UTC(1990, 0, 1);
  let close = 100;
  for (let i = 0; i < n; i++) {
    while (new Date(day).getUTCDay() % 6 === 0) day += 86_400_000;
    dates[i] = new Date(day).toISOString().slice(0, 10);
    day += 86_400_000;
    const open = close * (1 + (random() - 0.5) * 0.01);
    close = Math.max(0.01, close * (1 + (random() - 0.5) * 0.04));
    bars.open[i] = open;
    bars.close[i] = close;
    bars.high[i] = Math.max(open, close) * (1 + random() * 0.01);
    bars.low[i] = Math.min(open, close) * (1 - random() * 0.01);
    bars.volume[i] = Math.floor(random() * 1e6);
  }
  return bars;
}

function emptyBars(n: number): BarSeries & { dates: string[] } {
  return {
    // Filled with '' rather than `new Array(n)`: a large holey array is stored as a dictionary (slow to index).
    dates: Array.from({ length: n }, () => ''),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A hand-written bar of a golden case: the date, the open and the close (high and low follow from them). */
export type GoldenBar = readonly [date: string, open: number, close: number];

/** Golden-case bars as a series: high = max(open, close), low = min(open, close), volume 1000. */
export function goldenSeries(rows: readonly GoldenBar[]): BarSeries {
  return {
    dates: rows.map((r) => r[0]),
    open: Float64Array.from(rows, (r) => r[1]),
    close: Float64Array.from(rows, (r) => r[2]),
    high: Float64Array.from(rows, (r) => Math.max(r[1], r[2])),
    low: Float64Array.from(rows, (r) => Math.min(r[1], r[2])),
    volume: new Float64Array(rows.length).fill(1000),
  };
}
