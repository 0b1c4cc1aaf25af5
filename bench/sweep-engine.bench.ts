/**
 * The sweep core on one thread (pure code, no pool, no I/O): sweepCells for the 9,999 sma_crossover cells
 * (fast 2..100 × slow 300..400) over SPX 2000–2020 — each SMA period computed once per call, one tight loop per
 * cell — against the same cells through runTemplateBacktest one by one, timed alternately in the same process.
 * Prints medians (wall and CPU), bar-steps per second and the load average.
 *   Run: flock /tmp/bench.lock npx tsx bench/sweep-engine.bench.ts   (BENCH_SWEEP_RUNS, default 5)
 */
import os from 'node:os';
import { loadSpxBars } from '../test/fixtures/bar-series.js';
import { findTemplate, planSweep, runTemplateBacktest, sweepCells } from '../src/engine/index.js';
import { cpuTime, round, summary, time } from './measure.js';

const RUNS = Number(process.env.BENCH_SWEEP_RUNS ?? 5);
const CAPITAL = 100_000;

function main(): void {
  const bars = loadSpxBars();
  const template = findTemplate('sma_crossover')!;
  const plan = planSweep(template, { fast_period: { min: 2, max: 100, step: 1 }, slow_period: { min: 300, max: 400, step: 1 } });
  const barSteps = plan.cells.length * bars.dates.length;
  const sweep = () => sweepCells(bars, template, plan.cells, CAPITAL);
  const oneByOne = () => plan.cells.map((params) => runTemplateBacktest(bars, template, params, CAPITAL).metrics.total_return);

  // Warm-up, and the two paths agree on every cell's total_return.
  const fast = sweep();
  const slow = oneByOne();
  const differing = fast.filter((m, i) => !Object.is(m.total_return, slow[i])).length;
  if (differing > 0) throw new Error(`${differing} cells differ between sweepCells and runTemplateBacktest`);

  const rows = { sweepCells: { wall: [] as number[], cpu: [] as number[] }, runTemplateBacktest: { wall: [] as number[], cpu: [] as number[] } };
  for (let i = 0; i < RUNS; i++) {
    let wall = 0;
    rows.sweepCells.cpu.push(cpuTime(() => (wall = time(sweep))));
    rows.sweepCells.wall.push(wall);
    rows.runTemplateBacktest.cpu.push(cpuTime(() => (wall = time(oneByOne))));
    rows.runTemplateBacktest.wall.push(wall);
  }
  console.log(`${plan.cells.length} sma_crossover cells × ${bars.dates.length} SPX bars = ${(barSteps / 1e6).toFixed(1)} M bar-steps, ${RUNS} runs each, one thread`);
  for (const [name, { wall, cpu }] of Object.entries(rows)) {
    const median = summary(wall).median;
    console.log(
      `${name.padEnd(20)} median ${round(median, 1)} ms (best ${round(summary(wall).min, 1)}, CPU median ${round(summary(cpu).median, 1)} ms), ` +
        `${round(barSteps / median / 1e3, 1)} M bar-steps/s`,
    );
  }
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

main();
