/**
 * The sweep core on one thread (pure code, no pool, no I/O): sweepCells for the 9,999 sma_crossover cells
 * (fast 2..100 × slow 300..400) over SPX 2000–2020 — each SMA period computed once per call, one tight loop per
 * cell — and its first half (the chunk of one of the service's two worker threads), against the same cells through
 * runTemplateBacktest one by one, timed alternately in the same process; then a whole runSweep with walk-forward.
 * Prints medians (wall and CPU), bar-steps per second and the load average.
 *   Run: flock /tmp/bench.lock npx tsx bench/sweep-engine.bench.ts   (BENCH_SWEEP_RUNS, default 5)
 */
import os from 'node:os';
import { loadSpxBars } from '../test/fixtures/bar-series.js';
import { findTemplate, planSweep, runSweep, runTemplateBacktest, sweepCells, type CellMetrics, type GridSpec } from '../src/engine/index.js';
import { cpuTime, round, summary, time } from './measure.js';

const RUNS = Number(process.env.BENCH_SWEEP_RUNS ?? 5);
const CAPITAL = 100_000;

async function main(): Promise<void> {
  const bars = loadSpxBars();
  const template = findTemplate('sma_crossover')!;
  const plan = planSweep(template, { fast_period: { min: 2, max: 100, step: 1 }, slow_period: { min: 300, max: 400, step: 1 } });
  const barSteps = plan.cells.length * bars.dates.length;
  const sweep = () => sweepCells(bars, template, plan.cells, CAPITAL);
  const half = plan.cells.slice(0, Math.ceil(plan.cells.length / 2));
  const firstHalf = () => sweepCells(bars, template, half, CAPITAL);
  const walkForward = () =>
    runSweep(
      { bars, template, plan, initialCapital: CAPITAL, objective: 'sharpe_ratio', validation: { walk_forward: { windows: 5, in_sample_fraction: 0.75 } } },
      async (b, cells) => sweepCells(b, template, cells, CAPITAL),
    );
  const oneByOne = () => plan.cells.map((params) => runTemplateBacktest(bars, template, params, CAPITAL).metrics);

  // Warm-up, and the two paths agree on every metric of every cell.
  const fast = sweep();
  const slow = oneByOne();
  const differing = fast.filter((m, i) => Object.entries(m).some(([name, value]) => !Object.is(value, slow[i]![name as keyof CellMetrics]))).length;
  if (differing > 0) throw new Error(`${differing} cells differ between sweepCells and runTemplateBacktest`);

  const timed = { sweepCells: sweep, 'sweepCells, half': firstHalf, runTemplateBacktest: oneByOne };
  const rows = Object.fromEntries(Object.keys(timed).map((name) => [name, { wall: [] as number[], cpu: [] as number[] }]));
  for (let i = 0; i < RUNS; i++) {
    for (const [name, fn] of Object.entries(timed)) {
      let wall = 0;
      rows[name]!.cpu.push(cpuTime(() => (wall = time(fn))));
      rows[name]!.wall.push(wall);
    }
  }
  console.log(`${plan.cells.length} sma_crossover cells × ${bars.dates.length} SPX bars = ${(barSteps / 1e6).toFixed(1)} M bar-steps, ${RUNS} runs each, one thread`);
  for (const [name, { wall, cpu }] of Object.entries(rows)) {
    const median = summary(wall).median;
    const steps = name === 'sweepCells, half' ? half.length * bars.dates.length : barSteps;
    console.log(
      `${name.padEnd(20)} median ${round(median, 1)} ms (best ${round(summary(wall).min, 1)}, CPU median ${round(summary(cpu).median, 1)} ms), ` +
        `${round(steps / median / 1e3, 1)} M bar-steps/s`,
    );
  }
  // The whole sweep with walk-forward (5 windows, in-sample fraction 0.75): the cells over the whole period, then
  // over each window's in-sample bars, on this thread (the service runs each of those on its pool).
  await walkForward();
  const walkForwardWall: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await walkForward();
    walkForwardWall.push(performance.now() - start);
  }
  console.log(`runSweep, walk-forward 5 × 0.75: median ${round(summary(walkForwardWall).median, 1)} ms (best ${round(summary(walkForwardWall).min, 1)})`);
  // The other templates: a 2-D grid of about 1,000 cells each, sweepCells against one by one (CPU medians).
  const others: readonly [string, GridSpec][] = [
    ['ema_crossover', { fast_period: { min: 2, max: 100, step: 3 }, slow_period: { min: 110, max: 400, step: 10 } }],
    ['macd_crossover', { fast_period: { min: 2, max: 64, step: 2 }, slow_period: { min: 70, max: 200, step: 4 } }],
    ['rsi_reversion', { period: { min: 2, max: 100, step: 3 }, oversold: { min: 1, max: 50, step: 1.5 } }],
    ['bollinger_reversion', { period: { min: 5, max: 200, step: 6 }, std_dev: { min: 0.5, max: 5, step: 0.15 } }],
    ['donchian_breakout', { entry_period: { min: 2, max: 400, step: 13 }, exit_period: { min: 2, max: 400, step: 13 } }],
  ];
  for (const [id, grid] of others) {
    const other = findTemplate(id)!;
    const cells = planSweep(other, grid).cells;
    const shared = () => sweepCells(bars, other, cells, CAPITAL);
    const single = () => cells.map((params) => runTemplateBacktest(bars, other, params, CAPITAL).metrics);
    shared();
    single();
    const cpu = { shared: [] as number[], single: [] as number[] };
    for (let i = 0; i < RUNS; i++) {
      cpu.shared.push(cpuTime(shared));
      cpu.single.push(cpuTime(single));
    }
    console.log(
      `${id.padEnd(20)} ${cells.length} cells: sweepCells ${round(summary(cpu.shared).median, 1)} ms CPU, one by one ${round(summary(cpu.single).median, 1)} ms`,
    );
  }
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

await main();
