import { afterAll, expect, it } from 'vitest';
import { loadSpxBars } from '../../test/fixtures/bar-series.js';
import { findTemplate, planSweep, sweepCells } from '../engine/index.js';
import { SweepPool } from './sweep-pool.js';

const bars = loadSpxBars();
const template = findTemplate('rsi_reversion')!;
// 3 × 3 = 9 cells (oversold below overbought in all), over 4 threads: chunks of 3, 3 and 3, merged in order.
const plan = planSweep(template, { oversold: [20, 25, 30], overbought: [65, 70, 75] });
const pool = new SweepPool({ threads: 4 });

afterAll(async () => {
  await pool.close();
});

it('answers each cell as sweepCells on the main thread does, in the order of the cells, whatever the thread count', async () => {
  const expected = sweepCells(bars, template, plan.cells, 25_000);
  expect(await pool.runCells(bars, template, plan.cells, 25_000)).toEqual(expected);
  const seven = plan.cells.slice(0, 7);
  expect(await pool.runCells(bars, template, seven, 25_000)).toEqual(expected.slice(0, 7));
  expect(await pool.runCells(bars, template, plan.cells.slice(4, 5), 25_000)).toEqual(expected.slice(4, 5));
});

it('leaves the bars it was given as they were (the threads get copies)', async () => {
  const close = bars.close.slice();
  await pool.runCells(bars, template, plan.cells, 10_000);
  expect(bars.close.byteLength).toBe(close.byteLength);
  expect(bars.close).toEqual(close);
});

it('refuses a sweep that would overflow the queue whole, with 503 busy and Retry-After 1', async () => {
  const tiny = new SweepPool({ threads: 1, maxQueue: 1 });
  try {
    const big = planSweep(findTemplate('sma_crossover')!, { fast_period: { min: 2, max: 60, step: 1 }, slow_period: { min: 100, max: 200, step: 1 } });
    const running = tiny.runCells(bars, findTemplate('sma_crossover')!, big.cells, 1_000);
    const waiting = tiny.runCells(bars, findTemplate('sma_crossover')!, big.cells, 2_000);
    await expect(tiny.runCells(bars, template, plan.cells, 3_000)).rejects.toMatchObject({ status: 503, code: 'busy', retryAfterSeconds: 1 });
    await Promise.all([running, waiting]);
  } finally {
    await tiny.close();
  }
});

it('refuses sweeps once closed', async () => {
  const closed = new SweepPool({ threads: 1 });
  await closed.close();
  await expect(closed.runCells(bars, template, plan.cells, 1_000)).rejects.toMatchObject({ status: 503, code: 'shutting_down' });
});
