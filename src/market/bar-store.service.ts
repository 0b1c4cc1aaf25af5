import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import type { BarsSource } from '../platform/db/schema.js';
import type { Bar } from './bar-series.js';
import { deleteBarsOf, hasAnyBar, upsertBarBatch } from './bars.repo.js';
import { parseBarsCsv } from './csv-bars.js';
import { bumpBarsVersion, setBarsSource, upsertSymbol } from './symbols.repo.js';

const BATCH = 1000;
/** The sources that fetch bars on demand: each refreshes only the symbols it filled. */
const PROVIDERS: ReadonlySet<BarsSource> = new Set(['alpaca', 'yahoo']);

export const DEMO_SYMBOL = { symbol: 'SPX', name: 'S&P 500 Index' } as const;

/**
 * Told the symbol after new or changed bars of it were stored and committed (an import or a provider fetch). The
 * composition wires what listens (the trade window fills resting limit orders); market imports no feature above it.
 */
export type BarsStoredListener = (symbol: string) => Promise<void>;

export interface StoreBarsResult {
  /** Rows inserted or changed; 0 when the store already held exactly these bars. */
  readonly changed: number;
  /** The source whose bars this store replaced (an import taking over a symbol); absent otherwise. */
  readonly replaced?: BarsSource;
}

/**
 * Stores `bars` of `symbol` from `source` in one transaction: the symbol (created, or renamed when `name` is given),
 * every bar upserted by date in batches, and the symbol's bar version raised when anything changed so that every
 * process drops its cached series. Either all of it is stored or none.
 *
 * Each symbol's bars come from one source, recorded with them. A provider (`alpaca`, `yahoo`) writes only into a
 * symbol it filled: into any other it stores nothing (`changed: 0`). An import or the demo load takes a symbol from
 * another source over: its old bars are deleted and the new ones stored in their place, never merged with them.
 * `source` is `import` when not given (bars handed in directly).
 */
export async function storeBars(
  db: Db,
  clock: Clock,
  input: { symbol: string; name?: string | undefined; bars: readonly Bar[]; source?: BarsSource },
  onProgress: (stored: number) => void = () => {},
): Promise<StoreBarsResult> {
  const source = input.source ?? 'import';
  return db.transaction().execute(async (tx) => {
    const recorded = await upsertSymbol(tx, {
      symbol: input.symbol,
      name: input.name ?? input.symbol,
      now: clock.now().toISOString(),
      rename: input.name !== undefined,
      source,
    });
    const takenOver = recorded !== source;
    if (takenOver) {
      if (PROVIDERS.has(source)) return { changed: 0 };
      await deleteBarsOf(tx, input.symbol);
      await setBarsSource(tx, input.symbol, source);
    }
    let changed = 0;
    for (let offset = 0; offset < input.bars.length; offset += BATCH) {
      const batch = input.bars.slice(offset, offset + BATCH);
      changed += await upsertBarBatch(tx, input.symbol, batch);
      onProgress(offset + batch.length);
    }
    if (changed > 0 || takenOver) await bumpBarsVersion(tx, input.symbol);
    return takenOver ? { changed, replaced: recorded } : { changed };
  });
}

/** The vega-datasets S&P 500 daily series (2000-01-03 to 2020-04-17) shipped in node_modules. */
export function demoDataFile(): string {
  // The package exports only its entry point (build/index.js), not package.json: the data sits beside build/.
  const entry = createRequire(import.meta.url).resolve('vega-datasets');
  return path.join(path.dirname(entry), '..', 'data', 'sp500-2000.csv');
}

/**
 * Loads the demo series as `SPX` when the store holds no bar at all; otherwise does nothing. Safe to
 * run from several processes at once (the upsert makes a second load change nothing).
 */
export async function loadDemoDataIfEmpty(db: Db, clock: Clock, logger: Pick<FastifyBaseLogger, 'info'>): Promise<boolean> {
  if (await hasAnyBar(db)) return false;
  const file = demoDataFile();
  const { bars } = parseBarsCsv(fs.readFileSync(file, 'utf8'), file);
  await storeBars(db, clock, { ...DEMO_SYMBOL, bars, source: 'demo' });
  logger.info(
    { symbol: DEMO_SYMBOL.symbol, bars: bars.length, from: bars[0]!.date, to: bars.at(-1)!.date },
    `bar store was empty: loaded the demo series ${DEMO_SYMBOL.symbol} (${bars.length} daily bars from vega-datasets)`,
  );
  return true;
}
