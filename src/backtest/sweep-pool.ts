/**
 * The worker threads that run parameter sweeps, so the event loop never runs one itself: a piscina pool created at
 * the first sweep, one thread per core, its queue bounded (a full queue is 503 `busy`, retry in a second).
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { BarSeries, CellMetrics, ResolvedParameters, StrategyTemplate } from '../engine/index.js';
import { FRICTIONLESS, type ExecutionSettings } from '../engine/execution/settings.js';
import { ServiceUnavailable } from '../platform/errors.js';
import { unpackMetrics, type SweepChunk } from './sweep-worker.js';
import type { MonteCarloInput, MonteCarloResult } from '../engine/monte-carlo/index.js';

export interface SweepPoolOptions {
  /** Worker threads; by default one per core (os.availableParallelism()). */
  readonly threads?: number;
  /** Chunks that may wait for a thread; by default threads × 4. */
  readonly maxQueue?: number;
}

// From source (vitest, tsx) this module and the worker are .ts files, which the worker loads through tsx; from dist/, .js.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_FILE = new URL(`./sweep-worker.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url).href;

export class SweepPool {
  readonly threads: number;
  readonly maxQueue: number;
  #pool: Piscina | undefined;
  #closed = false;

  constructor(options: SweepPoolOptions = {}) {
    this.threads = options.threads ?? availableParallelism();
    this.maxQueue = options.maxQueue ?? this.threads * 4;
  }

  /**
   * Each cell's metrics over the bars, in the order of `cells`: one chunk of consecutive cells per thread, each
   * chunk sent with its own copy of the bars' columns (moved to the thread, so the cached series is never shared).
   */
  async runCells(
    bars: BarSeries,
    template: StrategyTemplate,
    cells: readonly ResolvedParameters[],
    initialCapital: number,
    execution: ExecutionSettings = FRICTIONLESS,
  ): Promise<CellMetrics[]> {
    if (cells.length === 0) return [];
    const pool = this.#started();
    const chunkCount = Math.min(this.threads, cells.length);
    if (pool.queueSize + chunkCount > this.maxQueue) throw poolBusy();
    const chunkSize = Math.ceil(cells.length / chunkCount);
    const runs: Promise<Float64Array>[] = [];
    for (let start = 0; start < cells.length; start += chunkSize) {
      const columns = [bars.open.slice(), bars.high.slice(), bars.low.slice(), bars.close.slice(), bars.volume.slice()] as const;
      const chunk: SweepChunk = {
        templateId: template.id,
        bars: { dates: bars.dates, open: columns[0], high: columns[1], low: columns[2], close: columns[3], volume: columns[4] },
        cells: cells.slice(start, start + chunkSize),
        initialCapital,
        execution,
      };
      runs.push(pool.run(chunk, { transferList: columns.map((column) => column.buffer) }).catch((error: unknown) => this.#refusal(error)));
    }
    const metrics: CellMetrics[] = [];
    for (const packed of await Promise.all(runs)) unpackMetrics(packed, metrics);
    return metrics;
  }

  /** A Monte Carlo run on one of the threads (the same threads and queue as the sweeps' chunks). */
  async runMonteCarlo(input: MonteCarloInput): Promise<MonteCarloResult> {
    const pool = this.#started();
    if (pool.queueSize + 1 > this.maxQueue) throw poolBusy();
    return pool.run(input, { name: 'monteCarloTask' }).catch((error: unknown) => this.#refusal(error));
  }

  /** Ends the threads (waiting for running chunks); later sweeps are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.destroy();
  }

  /** A full queue is 503 `busy`; a chunk cut off by close (the shutdown deadline passed) is 503 `shutting_down`. */
  #refusal(error: unknown): never {
    if (error instanceof Error && error.message === 'Task queue is at limit') throw poolBusy();
    if (this.#closed) throw shuttingDown();
    throw error;
  }

  #started(): Piscina {
    if (this.#closed) throw shuttingDown();
    this.#pool ??= new Piscina({
      filename: WORKER_FILE,
      minThreads: 0,
      maxThreads: this.threads,
      maxQueue: this.maxQueue,
      // An idle thread stays a minute: the next sweep does not pay for a thread's start and its module loading.
      idleTimeout: 60_000,
      ...(FROM_SOURCE ? { execArgv: ['--import', 'tsx'] } : {}),
    });
    return this.#pool;
  }
}

function poolBusy(): ServiceUnavailable {
  return new ServiceUnavailable('busy', 'Every sweep thread is busy and the queue is full; try again in a moment.', 1);
}

function shuttingDown(): ServiceUnavailable {
  return new ServiceUnavailable('shutting_down', 'The server is shutting down or restarting; try again in a moment.', 1);
}
