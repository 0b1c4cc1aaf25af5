/** planSweep: a grid of one or two template parameters expanded into cells, and what it refuses. */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { EngineError } from '../engine-error.js';
import { findTemplate } from '../templates.js';
import { MAX_SWEEP_CELLS, planSweep, type GridSpec } from './grid.js';

const sma = findTemplate('sma_crossover')!;
const rsi = findTemplate('rsi_reversion')!;
const bollinger = findTemplate('bollinger_reversion')!;

/**
 * planSweep in a worker thread, ended at the deadline: a count that never ends fails the test instead of hanging
 * the run (a loop on this thread would block the test's own timeout too).
 */
function planWithin(ms: number, templateId: string, grid: GridSpec): Promise<{ code: string; message: string }> {
  const module = new URL('./grid.ts', import.meta.url).href;
  const templates = new URL('../templates.ts', import.meta.url).href;
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    (async () => {
      const { tsImport } = await import('tsx/esm/api');
      const { planSweep } = await tsImport(workerData.module, workerData.module);
      const { findTemplate } = await tsImport(workerData.templates, workerData.templates);
      parentPort.postMessage('started');
      try {
        const plan = planSweep(findTemplate(workerData.templateId), workerData.grid);
        parentPort.postMessage({ code: 'planned', message: plan.cells.length + ' cells' });
      } catch (error) {
        parentPort.postMessage({ code: error.code, message: error.message });
      }
    })();`;
  const worker = new Worker(code, { eval: true, workerData: { module, templates, templateId, grid } });
  let timer: NodeJS.Timeout | undefined;
  const answer = new Promise<{ code: string; message: string }>((resolve, reject) => {
    worker.on('message', (message: 'started' | { code: string; message: string }) => {
      // The deadline counts from the call, not from the thread's start (loading the modules takes a while on a busy machine).
      if (message === 'started') timer = setTimeout(() => reject(new Error(`planSweep still counting after ${ms} ms`)), ms);
      else resolve(message);
    });
    worker.on('error', reject);
  });
  return answer.finally(() => {
    clearTimeout(timer);
    void worker.terminate();
  });
}

function refusal(template = sma, grid: GridSpec): EngineError {
  try {
    planSweep(template, grid);
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
  throw new Error('planSweep accepted the grid');
}

describe('planSweep', () => {
  it('orders the axes by the template, sorts values, enumerates cells row-major with the defaults filled in', () => {
    const plan = planSweep(rsi, { overbought: [80, 70], period: { min: 10, max: 14, step: 2 } });
    expect(plan.parameters).toEqual(['period', 'overbought']);
    expect(plan.axes).toEqual([[10, 12, 14], [70, 80]]);
    expect(plan.gridSize).toBe(6);
    expect(plan.skipped).toBe(0);
    expect(plan.cells).toEqual([
      { period: 10, oversold: 30, overbought: 70 },
      { period: 10, oversold: 30, overbought: 80 },
      { period: 12, oversold: 30, overbought: 70 },
      { period: 12, oversold: 30, overbought: 80 },
      { period: 14, oversold: 30, overbought: 70 },
      { period: 14, oversold: 30, overbought: 80 },
    ]);
  });

  it('steps 0.1 without drift and reaches the max', () => {
    expect(planSweep(bollinger, { std_dev: { min: 0.5, max: 1.2, step: 0.1 } }).axes[0]).toEqual([0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2]);
    expect(planSweep(bollinger, { std_dev: { min: 1, max: 1, step: 0.3 } }).axes[0]).toEqual([1]);
    expect(planSweep(sma, { fast_period: { min: 2, max: 9, step: 3 } }).axes[0]).toEqual([2, 5, 8]);
  });

  it('leaves out the cells where fast_period is not below slow_period, counting them', () => {
    const plan = planSweep(sma, { fast_period: [10, 20, 30], slow_period: [15, 20, 40] });
    expect(plan.cells.map((c) => [c.fast_period, c.slow_period])).toEqual([
      [10, 15],
      [10, 20],
      [10, 40],
      [20, 40],
      [30, 40],
    ]);
    expect(plan.skipped).toBe(4);
    expect(plan.gridSize).toBe(9);
    // One axis against the other's default (slow_period 30): fast 30 and 40 are left out.
    expect(planSweep(sma, { fast_period: [20, 30, 40] }).cells).toEqual([{ fast_period: 20, slow_period: 30 }]);
  });

  it.each<[string, GridSpec, string, RegExp]>([
    ['no parameter', {}, 'grid', /1 or 2 parameters; got 0/],
    ['three parameters', { period: [14], oversold: [30], overbought: [70] }, 'grid', /got 3/],
    ['an unknown name', { fast: [2] }, 'grid.fast', /Unknown parameter "fast".*fast_period, slow_period/],
    ['a value below the bounds', { fast_period: { min: 1, max: 5, step: 1 } }, 'grid.fast_period', /between 2 and 100; got 1/],
    ['a value above the bounds', { slow_period: [100, 401] }, 'grid.slow_period', /between 5 and 400; got 401/],
    ['a non-integer for an integer parameter', { fast_period: { min: 2, max: 4, step: 0.5 } }, 'grid.fast_period', /integers .* got 2.5/],
    ['a step of 0', { fast_period: { min: 2, max: 4, step: 0 } }, 'grid.fast_period', /step .* above 0/],
    ['a negative step', { fast_period: { min: 2, max: 4, step: -1 } }, 'grid.fast_period', /step .* above 0/],
    ['min above max', { fast_period: { min: 9, max: 4, step: 1 } }, 'grid.fast_period', /min <= max; got 9 > 4/],
    ['a repeated list value', { fast_period: [5, 6, 5] }, 'grid.fast_period', /repeats a value/],
    ['an empty list', { fast_period: [] }, 'grid.fast_period', /1 to 1000 values; got 0/],
    ['no valid cell', { fast_period: [50, 60], slow_period: [20, 50] }, 'grid.fast_period', /No cell of the grid is valid \(fast_period below slow_period\)/],
  ])('refuses %s (invalid_grid)', (_, grid, field, message) => {
    const error = refusal(grid.period ? rsi : sma, grid);
    expect(error.code).toBe('invalid_grid');
    expect(error.message).toMatch(message);
    expect(error.details[0]!.field).toBe(field);
  });

  it('refuses more than 10,000 cells, counted before skipping, and says the size (grid_too_large)', () => {
    const error = refusal(sma, { fast_period: { min: 2, max: 111, step: 1 }, slow_period: { min: 291, max: 400, step: 1 } });
    expect(error.code).toBe('grid_too_large');
    expect(error.message).toBe('The grid has 12,100 cells; at most 10,000.');
    // A range of millions of values is counted, not listed.
    expect(refusal(bollinger, { std_dev: { min: 0.5, max: 5, step: 1e-6 } }).message).toBe('The grid has 4,500,001 cells; at most 10,000.');
    // Counted before skipping: 99 × 102 = 10,098 cells, of which fewer than 10,000 have fast below slow.
    expect(refusal(sma, { fast_period: { min: 2, max: 100, step: 1 }, slow_period: { min: 5, max: 106, step: 1 } }).message).toBe(
      'The grid has 10,098 cells; at most 10,000.',
    );
    const donchian = findTemplate('donchian_breakout')!;
    const plan = planSweep(donchian, { entry_period: { min: 2, max: 101, step: 1 }, exit_period: { min: 2, max: 101, step: 1 } });
    expect(plan.cells).toHaveLength(MAX_SWEEP_CELLS);
  });

  it.each<[string, string, GridSpec, string, RegExp]>([
    ['a step of 1e-300 (the count passes 2^53)', 'sma_crossover', { fast_period: { min: 2, max: 100, step: 1e-300 } }, 'grid_too_large', /^The grid has more than 9,007,199,254,740,991 cells; at most 10,000\.$/],
    ['the smallest double as the step', 'bollinger_reversion', { std_dev: { min: 0.5, max: 5, step: 5e-324 } }, 'grid_too_large', /more than 9,007,199,254,740,991 cells/],
    ['a span that overflows', 'sma_crossover', { fast_period: { min: -1e308, max: 1e308, step: 1 } }, 'grid_too_large', /more than 9,007,199,254,740,991 cells/],
    ['a step just below the slack around a large max', 'rsi_reversion', { oversold: { min: 1, max: 1e15, step: 1e-3 } }, 'grid_too_large', /cells; at most 10,000/],
    ['the largest double as the max', 'sma_crossover', { fast_period: { min: Number.MAX_VALUE, max: Number.MAX_VALUE, step: 1 } }, 'invalid_grid', /between 2 and 100; got 1\.79/],
  ])('refuses %s at once, in a worker with a deadline', async (_, templateId, grid, code, message) => {
    const answer = await planWithin(5_000, templateId, grid);
    expect(answer.code).toBe(code);
    expect(answer.message).toMatch(message);
  }, 60_000);
});
