import fs from 'node:fs';
import cliProgress from 'cli-progress';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import type { BarsSource } from '../platform/db/schema.js';
import { storeBars, type BarsStoredListener } from './bar-store.service.js';
import { assertTicker } from './market-terms.js';
import { parseBarsCsv } from './csv-bars.js';

export interface ImportBarsOptions {
  readonly file: string;
  readonly symbol: string;
  readonly name?: string | undefined;
  /** Where progress goes: a bar when it is a terminal, a plain line per batch otherwise. */
  readonly progressStream?: NodeJS.WriteStream;
  /**
   * Called after every import, even one that changed nothing (the CLI wires the trade window's resting-order
   * fills): an import killed after storing its bars but before its fills are done is finished by running it again.
   */
  readonly onBarsStored?: BarsStoredListener;
}

export interface ImportBarsSummary {
  readonly symbol: string;
  readonly bars: number;
  readonly changed: number;
  /** The source (the demo, a provider) whose bars of the symbol this import replaced, when it took the symbol over. */
  readonly replaced: BarsSource | undefined;
  readonly skippedNullRows: number;
  readonly adjusted: boolean;
  readonly from: string;
  readonly to: string;
}

/**
 * `tradelab import-bars`: parses and validates the whole file first (a bad row throws `CsvBarsError`
 * naming file and line, and nothing is stored), then stores every bar in one transaction. Into a symbol the demo or a
 * provider filled, the file replaces its bars (they are not merged) and the symbol is an import from then on.
 */
export async function importBarsFile(db: Db, clock: Clock, options: ImportBarsOptions): Promise<ImportBarsSummary> {
  assertTicker(options.symbol);
  const parsed = parseBarsCsv(fs.readFileSync(options.file, 'utf8'), options.file);
  const stream = options.progressStream ?? process.stderr;
  const total = parsed.bars.length;
  const bar = stream.isTTY ? new cliProgress.SingleBar({ stream, format: `${options.symbol} {bar} {value}/{total} bars` }, cliProgress.Presets.shades_classic) : undefined;
  bar?.start(total, 0);
  try {
    const { changed, replaced } = await storeBars(db, clock, { symbol: options.symbol, name: options.name, bars: parsed.bars, source: 'import' }, (stored) => {
      if (bar) bar.update(stored);
      else stream.write(`${options.symbol}: ${stored}/${total} bars\n`);
    });
    await options.onBarsStored?.(options.symbol);
    return {
      symbol: options.symbol,
      bars: total,
      changed,
      replaced,
      skippedNullRows: parsed.skippedNullRows,
      adjusted: parsed.adjusted,
      from: parsed.bars[0]!.date,
      to: parsed.bars.at(-1)!.date,
    };
  } finally {
    bar?.stop();
  }
}
