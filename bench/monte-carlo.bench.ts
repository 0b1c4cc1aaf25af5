/**
 * Issue 28, the Monte Carlo's engine work: 10,000 paths over 20 years of SPX trades (the demo series, 2000–2020),
 * the template that trades most there with its defaults, by bootstrap and by shuffle. Pure code, one thread, no I/O
 * (on the server it runs on a worker thread): the median and best wall time of RUNS runs after a warm-up (target
 * under 200 ms), and the CPU time; and the backtest report of the same run, for scale.
 * Writes bench/results/monte-carlo-latest.json.   Run: npx tsx bench/monte-carlo.bench.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSpxBars } from '../test/fixtures/bar-series.js';
import { STRATEGY_TEMPLATES, defaultParameters, runTemplateBacktest } from '../src/engine/index.js';
import { monteCarlo, type ResampleMethod } from '../src/engine/monte-carlo/index.js';
import { backtestReport } from '../src/engine/report/index.js';
import { templateRoundTrips } from '../src/backtest/report-result.js';
import { cpuTime, round, summary, time } from './measure.js';

const RUNS = Number(process.env.BENCH_MONTE_CARLO_RUNS ?? 11);
const PATHS = 10_000;
const TARGET_MS = 200;
const CAPITAL = 100_000;

function main(): void {
  const bars = loadSpxBars();
  const runs = STRATEGY_TEMPLATES.map((template) => ({ template, run: runTemplateBacktest(bars, template, defaultParameters(template), CAPITAL) }));
  const { template, run } = runs.reduce((most, r) => (r.run.metrics.total_trades > most.run.metrics.total_trades ? r : most));
  const trips = templateRoundTrips(run.trades);
  const returns = trips.map((t) => t.return);
  const measure = (fn: () => unknown) => {
    for (let i = 0; i < 3; i++) fn();
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let elapsed = 0;
      cpu.push(cpuTime(() => (elapsed = time(fn))));
      wall.push(elapsed);
    }
    const { median, min, p95 } = summary(wall);
    return { median_ms: round(median), p95_ms: round(p95), best_ms: round(min), cpu_median_ms: round(summary(cpu).median) };
  };
  const methods = (['bootstrap', 'shuffle'] as ResampleMethod[]).map((method) => ({
    method,
    ...measure(() => monteCarlo({ returns, initialCapital: CAPITAL, runs: PATHS, seed: 1, method })),
  }));
  const report = {
    strategy: template.id,
    bars: bars.dates.length,
    first_date: bars.dates[0],
    last_date: bars.dates.at(-1),
    trades: returns.length,
    paths: PATHS,
    runs: RUNS,
    monte_carlo: methods,
    backtest_report: measure(() => backtestReport({ dates: bars.dates, equity: run.equity, initialCapital: CAPITAL, trades: trips })),
    target_ms: TARGET_MS,
    within_target: methods.every((m) => m.median_ms < TARGET_MS),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, load_average: os.loadavg().map((l) => round(l, 2)) },
    measured_at: new Date().toISOString(),
  };
  const dir = path.join(import.meta.dirname, 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'monte-carlo-latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    `Monte Carlo: ${PATHS.toLocaleString('en-US')} paths over ${report.trades} ${template.id} trades on SPX (${report.first_date} – ${report.last_date}), median of ${RUNS} runs, load average ${report.machine.load_average.join(' ')}:`,
  );
  console.table([...methods, { method: 'backtest report', ...report.backtest_report }].map((m) => ({ ...m, target_ms: m.method === 'backtest report' ? '' : TARGET_MS })));
  console.log(`written to ${path.relative(process.cwd(), path.join(dir, 'monte-carlo-latest.json'))}`);
}

main();
