import { Field } from '../ui/form';
import { symbolStatus } from './symbol-words';
import { useSymbolSearch } from './use-symbol-search';

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
}) {
  const query = props.value.trim();
  const search = useSymbolSearch(query, props.refresh);
  const typed = query.toUpperCase();
  const answered = search.answered !== undefined && search.answered.toUpperCase() === typed;
  const status = answered ? symbolStatus(typed, search.entries.find((entry) => entry.symbol === typed), search.provider) : undefined;
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
