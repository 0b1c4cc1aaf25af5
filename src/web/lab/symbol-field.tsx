import { Field } from '../ui/form';
import { symbolStatus } from './symbol-words';
import { useSymbolSearch, type SymbolSearchState } from './use-symbol-search';

/**
 * A ticker input whose suggestions come from `GET /api/symbols?q=` as the user types (debounced), through a
 * `<datalist>`: the browser's own accessible suggestion list, which also accepts tickers not listed (a provider
 * fetches them at the first run). Under it, what the server has of the ticker typed: its stored range and source, or
 * where it would come from.
 */
export function SymbolField(props: {
  value: string;
  error: string | undefined;
  onChange: (symbol: string) => void;
  label?: string;
  hint?: string;
  /** A new value searches again: a run may have fetched the ticker. */
  refresh?: unknown;
  /** What the ticker is typed for: a backtest (the default) or an order; each fetches a ticker not stored, and says so in its own words. */
  purpose?: 'backtest' | 'order';
}) {
  const query = props.value.trim();
  const search = useSymbolSearch(query, props.refresh);
  const status = statusOf(query, search, props.purpose);
  const hint =
    props.hint ??
    (search.provider === undefined || search.provider === 'none'
      ? 'A ticker with stored bars; the demo data has SPX (S&P 500).'
      : 'Any ticker: stored ones are listed as you type, others are fetched when you run.');

  return (
    <Field label={props.label ?? 'Symbol'} error={props.error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <>
          <input
            id={id}
            name="symbol"
            list={`${id}-list`}
            autocomplete="off"
            spellcheck={false}
            autocapitalize="characters"
            aria-describedby={[describedBy, `${id}-status`].filter(Boolean).join(' ')}
            aria-invalid={invalid}
            value={props.value}
            onInput={(event) => props.onChange(event.currentTarget.value)}
          />
          <datalist id={`${id}-list`}>
            {search.entries.map((entry) => (
              <option key={entry.symbol} value={entry.symbol} label={entry.stored ? entry.name : `${entry.name} (not stored yet)`} />
            ))}
          </datalist>
          <p class="field__hint symbol-status" id={`${id}-status`} aria-live="polite">
            {status}
          </p>
        </>
      )}
    </Field>
  );
}

/** What the search says of the ticker `query`, once it has answered for exactly that query. */
function statusOf(query: string, search: SymbolSearchState, purpose?: 'backtest' | 'order'): string | undefined {
  const typed = query.toUpperCase();
  if (search.answered === undefined || search.answered.toUpperCase() !== typed) return undefined;
  return symbolStatus(typed, search.entries.find((entry) => entry.symbol === typed), search.provider, purpose);
}

/** Shown under a field of several tickers: at most this many are looked up. */
const MAX_LISTED = 5;

/** For a field of several tickers (a library backtest's): what the server has of each, one line a ticker. */
export function SymbolsStatus(props: { id: string; symbols: readonly string[] }) {
  return (
    <ul class="field__hint symbol-status symbol-status--list" id={props.id} aria-live="polite">
      {props.symbols.slice(0, MAX_LISTED).map((symbol) => (
        <SymbolStatusLine key={symbol} symbol={symbol} />
      ))}
    </ul>
  );
}

function SymbolStatusLine(props: { symbol: string }) {
  const status = statusOf(props.symbol, useSymbolSearch(props.symbol));
  return status ? <li>{status}</li> : null;
}
