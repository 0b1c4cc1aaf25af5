/**
 * Rule grammar benchmarks (pure code, one thread, no I/O):
 *   - throughput in bars/s on 1,000,000 bars of a seeded random walk: compile + evaluate of library rules, next to
 *     the built-in template signal functions that say the same thing (src/backtest/engine/rules.ts); and a whole
 *     library backtest of one symbol (rules + replay + stats) next to the template's whole backtest;
 *   - compile time alone (µs) of typical rules and of the worst inputs the limits allow.
 * Prints tables and writes bench/results/grammar-latest.json.
 *   Run: npx tsx bench/grammar.bench.ts   or   BENCH_ONLY=grammar npx tsx bench/run.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomWalkBars } from '../test/fixtures/bar-series.js';
import { TEMPLATE_SIGNALS } from '../src/engine/signals.js';
import type { BarSeries } from '../src/engine/types.js';
import { compileRule, evaluateRules, ruleProblem } from '../src/strategies/grammar/index.js';
import { findTemplate, runTemplateBacktest } from '../src/engine/index.js';
import { replayStrategy } from '../src/engine/replay/replay.js';
import { cpuTime, round, summary, time } from './measure.js';

const BARS = Number(process.env.BENCH_GRAMMAR_BARS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_GRAMMAR_RUNS ?? 11);
const COMPILE_RUNS = Number(process.env.BENCH_GRAMMAR_COMPILE_RUNS ?? 2000);

const SMA_ENTRY = 'crosses_above(sma(close, 10), sma(close, 30))';
const SMA_EXIT = 'crosses_below(sma(close, 10), sma(close, 30))';
const RSI_TREND = 'rsi(close, 14) < 30 and close > sma(close, 200)';
const MACD_ENTRY = 'crosses_above(macd(close, 12, 26), ema(macd(close, 12, 26), 9))';
const MACD_EXIT = 'crosses_below(macd(close, 12, 26), ema(macd(close, 12, 26), 9))';

/** Each subject does all its work from the source text (or parameters) to the 0/1 or signal arrays. */
const SUBJECTS: readonly { name: string; run: (bars: BarSeries) => unknown }[] = [
  { name: 'rule: sma 10/30 entry + exit', run: (bars) => evaluateRules(bars, [compileRule(SMA_ENTRY), compileRule(SMA_EXIT)]) },
  { name: 'template: sma_crossover signals', run: (bars) => TEMPLATE_SIGNALS.sma_crossover!(bars, { fast_period: 10, slow_period: 30 }) },
  { name: `rule: ${RSI_TREND}`, run: (bars) => compileRule(RSI_TREND).evaluate(bars) },
  { name: 'rule: macd 12/26/9 entry + exit', run: (bars) => evaluateRules(bars, [compileRule(MACD_ENTRY), compileRule(MACD_EXIT)]) },
  { name: 'strategy: sma 10/30 rules + library replay', run: (bars) => libraryBacktest(bars, SMA_ENTRY, SMA_EXIT) },
  { name: 'template: sma_crossover backtest', run: (bars) => runTemplateBacktest(bars, findTemplate('sma_crossover')!, { fast_period: 10, slow_period: 30 }, 100_000) },
  { name: 'template: macd_crossover signals', run: (bars) => TEMPLATE_SIGNALS.macd_crossover!(bars, { fast_period: 12, slow_period: 26, signal_period: 9 }) },
];

/** What POST /api/backtest/run does for one symbol once the bars are read: compile, evaluate, replay. */
function libraryBacktest(bars: BarSeries, entry: string, exit: string): unknown {
  const [entrySignals, exitSignals] = evaluateRules(bars, [compileRule(entry), compileRule(exit)]);
  const input = { symbol: 'BENCH', bars, entry: entrySignals!, exit: exitSignals! };
  return replayStrategy([input], { side: 'long', maxPositionSize: null, profitTargetPct: null, stopLossPct: null, trailingStopPct: null }, 100_000);
}

const chain = (k: number) => 'sma('.repeat(k) + 'low' + ',1)'.repeat(k);
const COMPILE_INPUTS: readonly { name: string; source: string }[] = [
  { name: 'sma crossover entry', source: SMA_ENTRY },
  { name: 'rsi + trend', source: RSI_TREND },
  { name: '1,000 × "(" (refused at depth 51)', source: '('.repeat(1000) },
  { name: '50 nested sma calls (deepest accepted)', source: `${chain(50)} > 1` },
  { name: '100 calls in 722 characters (most accepted)', source: `${chain(49)}+${chain(49)}+${chain(2)} > 1` },
  { name: 'flat chain of 121 additions', source: `close${' + close'.repeat(120)} > 1` },
  { name: '1,000,000 characters (refused by length)', source: 'x'.repeat(1_000_000) },
];

export function runGrammarBench(): void {
  const walk = randomWalkBars(BARS, 42);
  const throughput = SUBJECTS.map((subject) => {
    for (let i = 0; i < 2; i++) subject.run(walk);
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let elapsed = 0;
      cpu.push(cpuTime(() => (elapsed = time(() => subject.run(walk)))));
      wall.push(elapsed);
    }
    const { median, min } = summary(wall);
    const cpuMedian = summary(cpu).median;
    return {
      subject: subject.name,
      bars: BARS,
      median_ms: round(median),
      best_ms: round(min),
      bars_per_second: Math.round(BARS / (median / 1000)),
      best_bars_per_second: Math.round(BARS / (min / 1000)),
      cpu_bars_per_second: Math.round(BARS / (cpuMedian / 1000)),
    };
  });

  const compile = COMPILE_INPUTS.map(({ name, source }) => {
    for (let i = 0; i < 50; i++) ruleProblem(source);
    const { median, p95, min } = summary(Array.from({ length: COMPILE_RUNS }, () => time(() => ruleProblem(source))));
    return { input: name, characters: source.length, problem: ruleProblem(source)?.message.slice(0, 60) ?? null, median_us: round(median * 1000, 1), p95_us: round(p95 * 1000, 1), best_us: round(min * 1000, 1) };
  });

  const report = {
    at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, load_average: os.loadavg().map((l) => round(l, 2)) },
    throughput,
    compile,
  };
  const dir = path.join(import.meta.dirname, 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'grammar-latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Rule grammar throughput, ${BARS.toLocaleString('en-US')} bars, median of ${RUNS} runs (single thread), load average ${report.machine.load_average.join(' ')}:`);
  console.table(throughput);
  console.log(`Compile time (parse + check + compile, or the first problem), ${COMPILE_RUNS} runs:`);
  console.table(compile);
  console.log(`written to ${path.relative(process.cwd(), path.join(dir, 'grammar-latest.json'))}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) runGrammarBench();
