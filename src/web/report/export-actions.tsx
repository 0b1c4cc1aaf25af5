import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { storedSymbol } from '../lab/use-symbol-search';
import type { SymbolEntry } from '../lab/types';
import { csvFileName, dailyEquityCsv } from './csv';
import { downloadText } from './download';

/** What the CSV file names say of a run. */
export interface RunDescription {
  /** Symbols and strategy: "SPX SMA Crossover". */
  readonly what: string;
  /** `YYYY-MM-DD`. */
  readonly start: string;
  readonly end: string;
}

/**
 * "Download trades (CSV)", "Download daily equity (CSV)" and "Print report" for one backtest. `trades` builds the
 * trades file when asked (the round trips as the results list them).
 */
export function ExportActions(props: {
  run: RunDescription;
  trades: () => string;
  equity: { readonly dates: readonly string[]; readonly equity_curve: readonly number[]; readonly drawdowns: readonly number[] };
  onPrint: () => void;
}) {
  const name = (kind: string) => csvFileName({ what: props.run.what, start: props.run.start, end: props.run.end, kind });
  return (
    <div class="export-actions" role="group" aria-label="Export">
      <button type="button" class="secondary" onClick={() => downloadText(name('trades'), props.trades())}>
        Download trades (CSV)
      </button>
      <button type="button" class="secondary" onClick={() => downloadText(name('daily-equity'), dailyEquityCsv(props.equity))}>
        Download daily equity (CSV)
      </button>
      <button type="button" class="secondary" onClick={props.onPrint}>
        Print report
      </button>
    </div>
  );
}

const SOURCE_NAMES: Readonly<Record<SymbolEntry['source'], string>> = { demo: 'demo data', import: 'imported data', yahoo: 'Yahoo Finance', alpaca: 'Alpaca' };

/**
 * What ran, above a result's exports and tabs: `children` say it on screen (the strategy, symbols, period and costs);
 * on paper (`print-only`) a title comes first and a line after them says where the prices came from, with the last day
 * stored, read from the symbol search after the run.
 */
export function RunHeader(props: { symbols: readonly string[]; children: ComponentChildren }) {
  const [sources, setSources] = useState<readonly SymbolEntry[] | undefined>(undefined);
  const key = props.symbols.join(',');
  useEffect(() => {
    let current = true;
    Promise.all(props.symbols.map((symbol) => storedSymbol(symbol).catch(() => undefined))).then(
      (found) => current && setSources(found.filter((entry): entry is SymbolEntry => entry !== undefined)),
    );
    return () => void (current = false);
  }, [key]);
  return (
    <header class="run-header">
      <p class="print-only run-header__title">tradelab backtest report</p>
      {props.children}
      <p class="print-only">
        Data:{' '}
        {sources === undefined || sources.length === 0
          ? 'source not known'
          : sources.map((entry) => `${entry.symbol} from ${SOURCE_NAMES[entry.source]}, stored to ${entry.last_date ?? 'no bars'}`).join('; ')}
        .
      </p>
    </header>
  );
}
