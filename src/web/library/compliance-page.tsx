import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { useSession } from '../auth/session';
import { Link, useLocation } from '../router';
import { Notice, SelectField, TextField, TickerField, formInputs, type Choice as SelectChoice } from '../ui/form';
import { useFocusFirstInvalid } from '../ui/use-focus-first-invalid';
import { ComplianceOutcome } from './compliance-outcome';
import { isSignedOut, placeApiError } from './errors';
import { LegsEditor, legsFor } from './legs-editor';
import { checkTradeInputs, requestOf, type TradeInputs } from './trade-inputs';
import { SignedInPage } from './signed-in-page';
import { isOptionsType, strategyTypeLabel } from './strategy-labels';
import { loadStrategyChoices, type StrategyChoice } from './strategy-choices';
import type { ComplianceResult, OrderSide } from './types';
import { useRequest } from './use-request';

const STATIC_CONTROLS = ['strategy_id', 'symbol', 'side', 'qty', 'price', 'order_type', 'legs'];
const CONTROL_OF_CODE = { not_found: 'strategy_id' };
const SIDES: readonly SelectChoice<OrderSide>[] = [
  { value: 'buy', label: 'Buy' },
  { value: 'sell', label: 'Sell' },
];
const ORDER_TYPES: readonly SelectChoice<TradeInputs['order_type']>[] = [
  { value: 'market', label: 'Market' },
  { value: 'limit', label: 'Limit' },
];

type Choice = StrategyChoice;

/** `/compliance?id=N`: does a trade meet a strategy's rules? The same check the order routes enforce. */
export function CompliancePage() {
  return (
    <SignedInPage title="Check a trade" signedOut="to check trades against your strategies.">
      {() => <ComplianceForm />}
    </SignedInPage>
  );
}

function ComplianceForm() {
  const { reload } = useSession();
  const wanted = useLocation().query.get('id') ?? '';
  const [choices, setChoices] = useState<readonly Choice[] | undefined>(undefined);
  const [loadProblem, setLoadProblem] = useState<string | undefined>(undefined);
  /** The address named a strategy the library does not have (deleted, or not this person's). */
  const [missing, setMissing] = useState<string | undefined>(undefined);
  const [inputs, setInputs] = useState<TradeInputs>({ strategy_id: '', symbol: '', side: 'buy', qty: '', price: '', order_type: 'market', legs: [] });
  const chosen = choices?.find((choice) => String(choice.id) === inputs.strategy_id);
  const options = chosen !== undefined && isOptionsType(chosen.strategy_type);
  const controls = new Set([...STATIC_CONTROLS, ...inputs.legs.flatMap((_, index) => [`legs.${index}`, `legs.${index}.symbol`, `legs.${index}.side`])]);
  const check = useRequest<ComplianceResult>((error) => placeApiError(error, controls, CONTROL_OF_CODE));
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, check.errors);

  const pick = (id: string, list: readonly Choice[]) => {
    const strategy = list.find((choice) => String(choice.id) === id);
    setInputs((current) => ({ ...current, strategy_id: id, legs: legsFor(strategy?.strategy_type) }));
    check.clear();
  };

  useEffect(() => {
    let current = true;
    (async () => {
      const { list, missing } = await loadStrategyChoices(wanted);
      if (!current) return;
      setChoices(list);
      setMissing(missing);
      const initial = list.find((choice) => String(choice.id) === wanted) ?? list[0];
      if (initial) pick(String(initial.id), list);
    })().catch((error: unknown) => {
      if (isSignedOut(error)) return void reload();
      if (current) setLoadProblem(`Your strategies could not be loaded: ${placeApiError(error, new Set()).form}`);
    });
    return () => void (current = false);
  }, [wanted]);

  const set = <K extends keyof TradeInputs>(key: K, value: TradeInputs[K]) => setInputs((current) => ({ ...current, [key]: value }));
  const errors = check.errors.fields;
  const { text, select } = formInputs(inputs, errors, set);

  async function submit(event: Event) {
    event.preventDefault();
    if (check.running) return;
    const found = checkTradeInputs(inputs, options);
    if (Object.keys(found).length > 0) return check.refuse({ fields: found });
    const body = requestOf(inputs, options);
    await check.start(() => api.post<ComplianceResult>('/api/trading/compliance-check', body));
  }

  if (loadProblem) return <Notice kind="error">{loadProblem}</Notice>;
  if (!choices) return <p class="muted">Loading your strategies…</p>;
  if (choices.length === 0) {
    return (
      <>
        {missing && <Notice kind="error">{missing}</Notice>}
        <p>
          No active strategy to check against. <Link href="/library">Open your library</Link> to create one or switch one on.
        </p>
      </>
    );
  }
  return (
    <>
      {missing && <Notice kind="error">{`${missing} Choose the strategy to check against below.`}</Notice>}
      <p class="muted">The same check the order routes run: each rule of the strategy the trade breaks is listed with why.</p>
      <form ref={form} class="compliance-form" noValidate onSubmit={submit} aria-describedby={check.errors.form ? 'compliance-form-error' : undefined}>
        <div class="form-grid">
          <SelectField
            label="Strategy"
            name="strategy_id"
            error={errors.strategy_id}
            hint={chosen ? `${strategyTypeLabel(chosen.strategy_type)}${chosen.inactive ? ', inactive' : ''}.` : undefined}
            value={inputs.strategy_id}
            choices={choices.map((choice) => ({ value: String(choice.id), label: `${choice.name}${choice.inactive ? ' (inactive)' : ''}` }))}
            onChange={(id) => pick(id, choices)}
          />
          <TickerField
            label="Symbol"
            name="symbol"
            hint={options ? 'The underlying, such as SPY.' : 'The ticker to trade, such as SPX.'}
            value={inputs.symbol}
            error={errors.symbol}
            onValue={(typed) => set('symbol', typed)}
          />
          <SelectField label="Side" choices={SIDES} {...select('side')} />
          <TextField label="Quantity" inputMode="numeric" hint={options ? 'Contracts (each 100 shares).' : 'Shares.'} {...text('qty')} />
          <TextField
            label="Price ($, optional)"
            inputMode="decimal"
            hint={
              options
                ? 'The net price per share of the whole order as quoted, a credit when selling (a contract is 100 shares).'
                : 'Per share. Empty: the latest stored close stands in; a limit order needs one.'
            }
            {...text('price')}
          />
          <SelectField label="Order type" choices={ORDER_TYPES} {...select('order_type')} />
        </div>
        {options && <LegsEditor legs={inputs.legs} errors={errors} onChange={(legs) => set('legs', legs)} />}
        {check.errors.form && (
          <div id="compliance-form-error">
            <Notice kind="error">{check.errors.form}</Notice>
          </div>
        )}
        <div class="actions">
          <button type="submit" disabled={check.running}>
            {check.running ? 'Checking…' : 'Check trade'}
          </button>
        </div>
      </form>
      <ComplianceOutcome running={check.running} result={check.result} />
    </>
  );
}
