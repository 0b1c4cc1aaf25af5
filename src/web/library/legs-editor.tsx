import { Field, TextField } from '../ui/form';
import type { LegInput } from './trade-inputs';
import type { OrderSide } from './types';

/** Empty leg rows, sell and buy in turn (a credit structure's short leg first). */
export function blankLegs(count: number): LegInput[] {
  return Array.from({ length: count }, (_, index) => ({ symbol: '', side: index % 2 === 0 ? 'sell' : 'buy' }));
}

/** The legs a trade for a strategy of this type starts with: a vertical spread has 2, an iron condor 4, the rest none. */
export function legsFor(strategyType: string | undefined): LegInput[] {
  return blankLegs(strategyType === 'iron_condor' ? 4 : strategyType === 'vertical_spread' ? 2 : 0);
}

/** The option legs of a trade, one row each (OCC symbol and side), with errors keyed `legs.<index>.<field>`. */
export function LegsEditor(props: { legs: readonly LegInput[]; errors: Readonly<Record<string, string>>; onChange: (legs: LegInput[]) => void }) {
  const { legs, errors } = props;
  const change = (index: number, next: Partial<LegInput>) => props.onChange(legs.map((leg, at) => (at === index ? { ...leg, ...next } : leg)));
  return (
    <fieldset class="legs" aria-describedby={errors.legs ? 'legs-error' : 'legs-hint'}>
      <legend>Legs</legend>
      <p class="field__hint" id="legs-hint">
        OCC symbols such as SPY261218C00450000 (root, expiry YYMMDD, C or P, strike × 1000). A vertical spread has 2 legs, an iron condor 4.
      </p>
      {errors.legs && (
        <p class="field__error" id="legs-error">
          {errors.legs}
        </p>
      )}
      <ol class="legs__rows">
        {legs.map((leg, index) => (
          <li key={index} class="legs__row">
            <TextField
              label={`Leg ${index + 1} option symbol`}
              name={`legs.${index}.symbol`}
              autoCapitalize="characters"
              autoComplete="off"
              spellcheck={false}
              value={leg.symbol}
              error={errors[`legs.${index}.symbol`] ?? errors[`legs.${index}`]}
              onInput={(event) => change(index, { symbol: event.currentTarget.value.toUpperCase() })}
            />
            <Field label={`Leg ${index + 1} side`} error={errors[`legs.${index}.side`]}>
              {({ id, describedBy, invalid }) => (
                <select id={id} aria-describedby={describedBy} aria-invalid={invalid} value={leg.side} onChange={(event) => change(index, { side: event.currentTarget.value as OrderSide })}>
                  <option value="buy">Buy</option>
                  <option value="sell">Sell</option>
                </select>
              )}
            </Field>
            <button type="button" class="secondary legs__remove" onClick={() => props.onChange(legs.filter((_, at) => at !== index))}>
              Remove leg {index + 1}
            </button>
          </li>
        ))}
      </ol>
      <button type="button" class="secondary" onClick={() => props.onChange([...legs, ...blankLegs(1)])}>
        Add a leg
      </button>
    </fieldset>
  );
}
