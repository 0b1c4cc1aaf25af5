/**
 * Engine benchmarks (pure code, one thread, no I/O):
 *   - throughput of each template with its default parameters on 1,000,000 bars of a seeded random walk (bars/s),
 *     next to a hand-written reference loop doing the same trading (bench/reference-loops.ts), timed alternately in
 *     the same run, and the ratio template / reference of the median times; a fused run builds its trade objects
 *     and its drawdown curve when they are first read (a comparison reads neither), so the same run with both read
 *     is timed too (`with_output`);
 *   - sma_crossover with costs on (5 bp slippage, $0.005 a share, $1 minimum) against a hand-written loop with the
 *     same costs (`with_costs`), and the engine's time on the same run without costs;
 *   - POST /api/compare-strategies' engine work: every template over the whole SPX series (ms), with and without
 *     shaping the comparison result and serializing it to JSON.
 * Prints a table and writes bench/results/engine-latest.json.   Run: npx tsx bench/engine.bench.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSpxBars, randomWalkBars } from '../test/fixtures/bar-series.js';
import { compareTemplates, comparisonResult } from '../src/backtest/backtest-result.js';
import { NO_COSTS, NO_EXITS, STRATEGY_TEMPLATES, defaultParameters, findTemplate, runTemplateBacktest } from '../src/engine/index.js';
import { cpuTime, round, summary, time } from './measure.js';
import { BENCH_COSTS, REFERENCE_LOOPS, referenceSmaWithCosts } from './reference-loops.js';

const BARS = Number(process.env.BENCH_ENGINE_BARS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_ENGINE_RUNS ?? 11);
const COMPARE_RUNS = Number(process.env.BENCH_ENGINE_COMPARE_RUNS ?? 200);
const CAPITAL = 100_000;

function main(): void {
  const walk = randomWalkBars(BARS, 42);
  const throughput = STRATEGY_TEMPLATES.map((template) => {
    const params = defaultParameters(template);
    const reference = REFERENCE_LOOPS[template.id]!;
    let trades = 0;
    let finalCapital = 0;
    for (let i = 0; i < 3; i++) {
      const run = runTemplateBacktest(walk, template, params, CAPITAL);
      trades = run.metrics.total_trades;
      finalCapital = run.metrics.final_capital;
      reference(walk, params, CAPITAL);
    }
    const referenceFinal = reference(walk, params, CAPITAL);
    const wall: number[] = [];
    const cpu: number[] = [];
    const referenceWall: number[] = [];
    const withOutput: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Alternately, so that load from other processes falls on both alike.
      let elapsed = 0;
      cpu.push(cpuTime(() => (elapsed = time(() => runTemplateBacktest(walk, template, params, CAPITAL)))));
      wall.push(elapsed);
      referenceWall.push(time(() => reference(walk, params, CAPITAL)));
      withOutput.push(
        time(() => {
          const run = runTemplateBacktest(walk, template, params, CAPITAL);
          return [run.trades, run.drawdowns];
        }),
      );
    }
    const { median, min } = summary(wall);
    const cpuMedian = summary(cpu).median;
    const referenceMedian = summary(referenceWall).median;
    const withOutputMedian = summary(withOutput).median;
    return {
      template: template.id,
      bars: BARS,
      round_trips: trades,
      median_ms: round(median),
      best_ms: round(min),
      cpu_median_ms: round(cpuMedian),
      bars_per_second: Math.round(BARS / (median / 1000)),
      // Other processes on the 2 cores stretch wall time; the fastest run and the CPU time are closer to what
      // one core does on its own.
      best_bars_per_second: Math.round(BARS / (min / 1000)),
      cpu_bars_per_second: Math.round(BARS / (cpuMedian / 1000)),
      reference_median_ms: round(referenceMedian),
      reference_bars_per_second: Math.round(BARS / (referenceMedian / 1000)),
      ratio_to_reference: round(referenceMedian / median),
      // The run with its trade objects and drawdown curve read (built on first read).
      with_output_median_ms: round(withOutputMedian),
      with_output_ratio_to_reference: round(referenceMedian / withOutputMedian),
      // The reference trades the same way (plain sums instead of exact ones): its final equity should agree.
      reference_agrees: Math.abs(referenceFinal - finalCapital) <= 1e-6 * Math.abs(finalCapital),
    };
  });

  const withCosts = costedThroughput(walk);

  const spx = loadSpxBars();
  const compareOnce = () => compareTemplates(spx, STRATEGY_TEMPLATES, CAPITAL);
  const compareJson = () =>
    JSON.stringify(
      comparisonResult({
        symbol: 'SPX',
        startDate: `${spx.dates[0]}T00:00:00.000Z`,
        endDate: `${spx.dates.at(-1)}T00:00:00.000Z`,
        initialCapital: CAPITAL,
        dataFeed: 'delayed_sip',
        dates: spx.dates,
        strategies: compareOnce(),
      }),
    );
  const coldMs = time(compareOnce);
  for (let i = 0; i < 20; i++) compareJson();
  const engineOnly = summary(Array.from({ length: COMPARE_RUNS }, () => time(compareOnce)));
  const withJson = summary(Array.from({ length: COMPARE_RUNS }, () => time(compareJson)));
  const compare = {
    bars: spx.dates.length,
    templates: STRATEGY_TEMPLATES.length,
    first_run_ms: round(coldMs),
    engine_median_ms: round(engineOnly.median),
    engine_p95_ms: round(engineOnly.p95),
    with_json_median_ms: round(withJson.median),
    with_json_p95_ms: round(withJson.p95),
    json_bytes: compareJson().length,
  };

  const report = {
    at: new Date().toISOString(),
    // Other processes on the machine slow the median down; the load average says how busy it was.
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, load_average: os.loadavg().map((l) => round(l, 2)) },
    targets: { ratio_to_reference_every_template: 0.5, spx_compare_all_ms: 20 },
    throughput,
    with_costs: withCosts,
    spx_compare: compare,
  };
  const dir = path.join(import.meta.dirname, 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'engine-latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Engine throughput, ${BARS.toLocaleString('en-US')} bars, median of ${RUNS} runs (single thread), load average ${report.machine.load_average.join(' ')}:`);
  console.table(throughput.map((r) => ({ template: r.template, round_trips: r.round_trips, median_ms: r.median_ms, bars_per_second: r.bars_per_second, best_bars_per_second: r.best_bars_per_second, reference_bars_per_second: r.reference_bars_per_second, ratio: r.ratio_to_reference, ratio_with_output: r.with_output_ratio_to_reference, agrees: r.reference_agrees })));
  console.log(`sma_crossover with costs (5 bp slippage, $0.005 a share, $1 minimum), ${BARS.toLocaleString('en-US')} bars, median of ${RUNS} runs:`);
  console.table([withCosts]);
  console.log(`All ${compare.templates} templates over SPX (${compare.bars} bars), ${COMPARE_RUNS} runs:`);
  console.table([compare]);
  console.log(`written to ${path.relative(process.cwd(), path.join(dir, 'engine-latest.json'))}`);
}

/**
 * The second figure: sma_crossover with costs on (BENCH_COSTS) against the hand-written loop with the same costs,
 * timed alternately, and the engine's own time with costs against its time without them.
 */
function costedThroughput(walk: ReturnType<typeof randomWalkBars>) {
  const template = findTemplate('sma_crossover')!;
  const params = defaultParameters(template);
  const execution = { costs: { ...NO_COSTS, ...BENCH_COSTS }, sizing: { mode: 'all_in' as const }, exits: NO_EXITS };
  const costed = () => runTemplateBacktest(walk, template, params, CAPITAL, execution);
  const free = () => runTemplateBacktest(walk, template, params, CAPITAL);
  const reference = () => referenceSmaWithCosts(walk, params, CAPITAL);
  for (let i = 0; i < 3; i++) {
    costed();
    free();
    reference();
  }
  const times = { costed: [] as number[], free: [] as number[], reference: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    times.costed.push(time(costed));
    times.reference.push(time(reference));
    times.free.push(time(free));
  }
  const run = costed();
  const median = summary(times.costed).median;
  const referenceMedian = summary(times.reference).median;
  return {
    template: 'sma_crossover',
    round_trips: run.metrics.total_trades,
    median_ms: round(median),
    bars_per_second: Math.round(BARS / (median / 1000)),
    reference_median_ms: round(referenceMedian),
    ratio_to_reference: round(referenceMedian / median),
    without_costs_median_ms: round(summary(times.free).median),
    commission_paid: round(run.costs_paid.commission),
    slippage_paid: round(run.costs_paid.slippage),
    reference_agrees: Math.abs(reference() - run.metrics.final_capital) <= 1e-6 * Math.abs(run.metrics.final_capital),
  };
}

main();
