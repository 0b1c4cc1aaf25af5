import { modeledPricesNote, skippedEntriesWords } from './options-words';
import type { OptionsBacktestResult } from './types';

/**
 * Said above every options result: that its prices are modeled, by which model and volatility, and with what spread
 * (DESIGN: "The web app shows 'modeled prices' next to every options result"); then why entry signals were skipped.
 */
export function OptionsNotes(props: { result: OptionsBacktestResult; creditMinAmount: number | null }) {
  const { pricing, skipped_entries } = props.result;
  const skipped = skippedEntriesWords(skipped_entries, props.creditMinAmount);
  return (
    <>
      <p class="notice notice--info modeled-prices">
        {modeledPricesNote(pricing)} Modeled spread: {pricing.spread}.
      </p>
      {skipped.length > 0 && (
        <ul class="notice notice--info skipped-entries" aria-label="Skipped entries">
          {skipped.map((sentence) => (
            <li key={sentence}>{sentence}</li>
          ))}
        </ul>
      )}
    </>
  );
}
