/**
 * Issue 27, the options replay's engine work: a 20-year daily iron-condor replay on SPX (the demo series,
 * 2000–2020, realized_20d volatility), 0.16-delta shorts, $50 wings, 45 days to expiry, profit target 50 % of the
 * credit, stop loss −100 %, exit at 21 days to expiry, $0.65 a contract, a new condor whenever flat. Pure code, one
 * thread, no I/O: the median and best wall time of RUNS replays after a warm-up (target well under 100 ms), and the
 * CPU time. Writes bench/results/options-replay-latest.json.   Run: npx tsx bench/options-replay.bench.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSpxBars } from '../test/fixtures/bar-series.js';
import { replayOptionsStrategy } from '../src/engine/options/replay.js';
import type { OptionsReplayStrategy } from '../src/engine/options/replay-types.js';
import { cpuTime, round, summary, time } from './measure.js';

const RUNS = Number(process.env.BENCH_OPTIONS_RUNS ?? 21);
const TARGET_MS = 100;

const CONDOR: OptionsReplayStrategy = {
  type: 'iron_condor',
  spec: { short_delta: 0.16, wing_width: 50, dte: 45 },
  maxPositionSize: 10_000,
  creditMinAmount: null,
  profitTargetPct: 0.5,
  stopLossPct: -1,
  exitMaxDte: 21,
};

function main(): void {
  const bars = loadSpxBars();
  const input = { symbol: 'SPX', bars, entry: null, exit: null, volatility: null, volatilitySymbol: null };
  const settings = { commissionPerContract: 0.65, rate: 0 };
  const replay = () => replayOptionsStrategy(input, CONDOR, settings, 100_000);
  for (let i = 0; i < 5; i++) replay();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    let elapsed = 0;
    cpu.push(cpuTime(() => (elapsed = time(replay))));
    wall.push(elapsed);
  }
  const result = replay();
  const { median, min, p95 } = summary(wall);
  const report = {
    replay: 'iron_condor on SPX, realized_20d',
    bars: bars.dates.length,
    first_date: bars.dates[0],
    last_date: bars.dates.at(-1),
    trades: result.trades.length,
    final_capital: round(result.final_capital, 2),
    runs: RUNS,
    median_ms: round(median),
    p95_ms: round(p95),
    best_ms: round(min),
    cpu_median_ms: round(summary(cpu).median),
    target_ms: TARGET_MS,
    within_target: median < TARGET_MS,
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, load_average: os.loadavg().map((l) => round(l, 2)) },
    measured_at: new Date().toISOString(),
  };
  const dir = path.join(import.meta.dirname, 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'options-replay-latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Options replay: ${report.replay}, ${report.bars} bars (${report.first_date} – ${report.last_date}), ${report.trades} trades, median of ${RUNS} runs, load average ${report.machine.load_average.join(' ')}:`);
  console.table([{ median_ms: report.median_ms, p95_ms: report.p95_ms, best_ms: report.best_ms, cpu_median_ms: report.cpu_median_ms, target_ms: TARGET_MS }]);
  console.log(`written to ${path.relative(process.cwd(), path.join(dir, 'options-replay-latest.json'))}`);
}

main();
