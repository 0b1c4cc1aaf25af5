import type { Bar } from './bar-series.js';
import { isIsoDate } from './market-terms.js';

/** A CSV row we refuse: `file:line: reason`, with the line counted from 1 (the header). */
export class CsvBarsError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
    this.name = 'CsvBarsError';
  }
}

export interface ParsedBars {
  readonly bars: Bar[];
  /** Rows Yahoo writes as all `null` (days without trading data): skipped, counted here. */
  readonly skippedNullRows: number;
  /** Whether prices were adjusted by an `Adj Close` column. */
  readonly adjusted: boolean;
}

/** Relative slack for high/low consistency: CSVs round each price on its own. */
const PRICE_TOLERANCE = 1e-4;
const REQUIRED = ['date', 'open', 'high', 'low', 'close', 'volume'] as const;
type Column = (typeof REQUIRED)[number] | 'adjclose';

/**
 * Parses and validates a whole Yahoo-style daily-bar CSV (`Date,Open,High,Low,Close[,Adj Close],Volume`,
 * header case, spaces and underscores ignored, extra columns ignored) before anything is stored.
 * With `Adj Close`, open/high/low/close are multiplied by `Adj Close / Close`; volume is kept as it is.
 * Throws `CsvBarsError` at the first bad row.
 */
export function parseBarsCsv(text: string, file: string): ParsedBars {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const columns = headerColumns(lines[0] ?? '', file);
  const bars: Bar[] = [];
  let skippedNullRows = 0;
  let previousDate = '';
  for (let index = 1; index < lines.length; index += 1) {
    const raw = lines[index]!;
    if (raw.trim() === '') continue;
    const lineNumber = index + 1;
    const fail = (reason: string): never => {
      throw new CsvBarsError(file, lineNumber, reason);
    };
    const cells = raw.split(',').map((cell) => cell.trim());
    if (cells.length < columns.width) fail(`expected ${columns.width} fields, found ${cells.length}`);
    const cell = (name: Column) => cells[columns.index.get(name)!]!;

    const date = cell('date');
    if (!isIsoDate(date)) fail(`date "${date}" is not a calendar date in YYYY-MM-DD form`);
    const valueColumns: Column[] = columns.index.has('adjclose') ? ['open', 'high', 'low', 'close', 'adjclose', 'volume'] : ['open', 'high', 'low', 'close', 'volume'];
    if (valueColumns.every((name) => cell(name).toLowerCase() === 'null')) {
      skippedNullRows += 1;
      continue;
    }
    if (date <= previousDate) fail(date === previousDate ? `date ${date} appears twice` : `date ${date} comes after ${previousDate}: dates must ascend`);
    previousDate = date;

    const value = (name: Column): number => {
      const text = cell(name);
      const number = text === '' ? NaN : Number(text);
      if (!Number.isFinite(number)) fail(`${name} "${text}" is not a number`);
      return number;
    };
    const open = value('open');
    const high = value('high');
    const low = value('low');
    const close = value('close');
    const volume = value('volume');
    if (low <= 0) fail(`low ${low} is not a positive price`);
    const slack = PRICE_TOLERANCE * high;
    if (high + slack < Math.max(open, close)) fail(`high ${high} is below open ${open} or close ${close}`);
    if (low - slack > Math.min(open, close)) fail(`low ${low} is above open ${open} or close ${close}`);
    if (volume < 0) fail(`volume ${volume} is negative`);
    const bar = { date, open, high, low, close, volume };
    if (columns.index.has('adjclose')) {
      const adjClose = value('adjclose');
      if (adjClose <= 0) fail(`adj close ${adjClose} is not a positive price`);
      bars.push(adjustedBy(bar, adjClose));
    } else {
      bars.push(bar);
    }
  }
  if (bars.length === 0) throw new CsvBarsError(file, lines.length, 'the file holds no bars');
  return { bars, skippedNullRows, adjusted: columns.index.has('adjclose') };
}

/**
 * The bar adjusted for splits and dividends by its adjusted close, as Yahoo computes it: open, high, low and close
 * multiplied by `adjClose / close`; volume kept as it is. The CSV import and the Yahoo provider share this rule.
 */
export function adjustedBy(bar: Bar, adjClose: number): Bar {
  const factor = adjClose / bar.close;
  return { date: bar.date, open: bar.open * factor, high: bar.high * factor, low: bar.low * factor, close: bar.close * factor, volume: bar.volume };
}

function headerColumns(header: string, file: string): { index: Map<Column, number>; width: number } {
  const names = header.split(',').map((name) => name.trim().toLowerCase().replace(/[\s_]/g, ''));
  const index = new Map<Column, number>();
  names.forEach((name, position) => {
    if ((REQUIRED as readonly string[]).includes(name) || name === 'adjclose') index.set(name as Column, position);
  });
  const missing = REQUIRED.filter((name) => !index.has(name));
  if (missing.length > 0) {
    throw new CsvBarsError(file, 1, `the header lacks ${missing.join(', ')} (expected Date,Open,High,Low,Close,Adj Close,Volume)`);
  }
  return { index, width: Math.max(...index.values()) + 1 };
}
