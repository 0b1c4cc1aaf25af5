import { SelectField, TextField, formInputs } from '../ui/form';
import { PeriodFields } from '../ui/period-fields';
import { feedChoices, feedHint, type MarketInputs } from './market-inputs';
import { useDataFeeds } from './use-data-feeds';
import { SymbolField } from './symbol-field';

/** Symbol, period, starting capital and data feed: the part of the form the lab and the comparison share. */
export function MarketFields(props: {
  value: MarketInputs;
  errors: Readonly<Record<string, string>>;
  onChange: (next: MarketInputs) => void;
  /** The result on screen: a new one refreshes what the symbol field says of the ticker. */
  result?: unknown;
}) {
  const { value, errors } = props;
  const set = <K extends keyof MarketInputs>(key: K, next: MarketInputs[K]) => props.onChange({ ...value, [key]: next });
  const { text, select } = formInputs(value, errors, set);
  const feeds = useDataFeeds();
  return (
    <>
      <SymbolField value={value.symbol} error={errors.symbol} onChange={(symbol) => set('symbol', symbol)} refresh={props.result} />
      <PeriodFields value={value} errors={errors} errorId="period-error" onChange={set} />
      <TextField label="Initial capital ($)" type="number" inputMode="decimal" min={1} step="any" required {...text('initial_capital')} />
      <SelectField label="Data feed" hint={feedHint(feeds)} choices={feedChoices(feeds, value.data_feed)} {...select('data_feed')} />
    </>
  );
}
