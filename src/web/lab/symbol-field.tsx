import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { Field } from '../ui/form';
import type { SymbolEntry } from './types';

const SEARCH_DELAY_MS = 200;
const SUGGESTIONS = 10;

/**
 * A ticker input whose suggestions come from `GET /api/symbols?q=` as the user types (debounced), through a
 * `<datalist>`: the browser's own accessible suggestion list, which also accepts tickers not listed.
 */
export function SymbolField(props: { value: string; error: string | undefined; onChange: (symbol: string) => void; label?: string; hint?: string }) {
  const [suggestions, setSuggestions] = useState<readonly SymbolEntry[]>([]);
  const query = props.value.trim();

  useEffect(() => {
    let current = true;
    const timer = setTimeout(async () => {
      try {
        const found = await api.get<SymbolEntry[]>(`/api/symbols?q=${encodeURIComponent(query)}&limit=${SUGGESTIONS}`);
        if (current) setSuggestions(found);
      } catch {
        // Suggestions are a convenience: a failed search leaves the last list and the run reports real problems.
      }
    }, SEARCH_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query]);

  return (
    <Field label={props.label ?? 'Symbol'} error={props.error} hint={props.hint ?? 'A ticker with stored bars; the demo data has SPX (S&P 500).'}>
      {({ id, describedBy, invalid }) => (
        <>
          <input
            id={id}
            name="symbol"
            list={`${id}-list`}
            autocomplete="off"
            spellcheck={false}
            autocapitalize="characters"
            aria-describedby={describedBy}
            aria-invalid={invalid}
            value={props.value}
            onInput={(event) => props.onChange(event.currentTarget.value)}
          />
          <datalist id={`${id}-list`}>
            {suggestions.map((entry) => (
              <option key={entry.symbol} value={entry.symbol} label={entry.name} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}
