import { useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { useFocusOn } from '../auth/focus';
import { SymbolField } from '../lab/symbol-field';
import { Verdict, ViolationList, type Violation } from '../library/compliance-outcome';
import { placeApiError } from '../library/errors';
import { LegsEditor, legsFor } from '../library/legs-editor';
import type { StrategyChoice } from '../library/strategy-choices';
import { isOptionsType, strategyTypeLabel } from '../library/strategy-labels';
import type { OrderSide } from '../library/types';
import { useRequest } from '../library/use-request';
import { Field, Notice, TextField } from '../ui/form';
import { formatDateTime } from '../ui/format';
import { useFocusFirstInvalid } from '../ui/use-focus-first-invalid';
import { checkTicket, complianceRequestOf, equityOrderBody, newClientOrderId, optionsOrderBody, type TicketInputs, type TicketKind } from './ticket-inputs';
import { placedSentence } from './order-words';
import { RiskAtExpiry } from './risk-at-expiry';
import { TicketPrice } from './ticket-price';
import type { OptionsPreview, Order } from './types';
import { useCompliancePreview, useServerPreview, type Preview } from './use-compliance-preview';

const STATIC_CONTROLS = ['strategy_id', 'symbol', 'underlying', 'side', 'qty', 'order_type', 'limit_price', 'legs', 'net_price'];
/** Refusals that concern one control: the strategy (not yours), the quantity (cash or shares), the symbol (no bars), the legs, the net price (one the legs could never be worth, or a limit the modeled price does not reach). */
const CONTROL_OF_CODE = {
  not_found: 'strategy_id',
  insufficient_funds: 'qty',
  insufficient_position: 'qty',
  no_price: 'symbol',
  invalid_symbol: 'symbol',
  option_expired: 'legs',
  invalid_option_symbol: 'legs',
  price_out_of_bounds: 'net_price',
  limit_not_marketable: 'net_price',
};

/** What the server said when it refused the order for breaking the strategy's rules (422 `compliance_violation`). */
interface Refusal {
  readonly message: string;
  readonly violations: readonly Violation[];
}

/**
 * The order ticket: shares (market or limit) or options (legs at a net price), with or without a strategy. With a
 * strategy the order is checked as it is filled in (a soft warning: the compliance check), and a refusal by the
 * server (enforcement on) lists the violations. Each submit carries an idempotency key, reused when the same
 * ticket is sent again after no answer (a network failure), so a retry never places a second order.
 */
export function OrderTicket(props: {
  choices: readonly StrategyChoice[];
  inputs: TicketInputs;
  onInputs: (update: (current: TicketInputs) => TicketInputs) => void;
  /** An order was placed or refused (a refusal is stored too): the portfolio and history are out of date. */
  onOrdersChanged: () => void;
  /** The cooldown's end from a 403 `trade_cooldown`; undefined once an order is taken (it is over). */
  onCooldown: (until: string | undefined) => void;
  /** Cash not held back, from the portfolio (null until it is loaded): the estimate's "cash available after". */
  available: number | null;
}) {
  const { choices, inputs } = props;
  const [refusal, setRefusal] = useState<Refusal | undefined>(undefined);
  const [placed, setPlaced] = useState<Order | undefined>(undefined);
  const placedRef = useFocusOn<HTMLDivElement>(placed);
  /** The last attempt that got no answer: sending the same body again reuses its key. */
  const unanswered = useRef<{ body: string; key: string } | undefined>(undefined);
  const chosen = choices.find((choice) => String(choice.id) === inputs.strategy_id);
  const options = inputs.kind === 'options';
  const controls = new Set([...STATIC_CONTROLS, ...inputs.legs.flatMap((_, index) => [`legs.${index}`, `legs.${index}.symbol`, `legs.${index}.side`])]);
  const place = useRequest<Order>((error) => {
    if (error instanceof ApiError && error.code === 'compliance_violation') {
      const violations = Array.isArray(error.body.violations) ? (error.body.violations as Violation[]) : [];
      setRefusal({ message: error.message, violations });
      return { fields: {} };
    }
    if (error instanceof ApiError && error.code === 'trade_cooldown' && typeof error.body.until === 'string') {
      // The banner above the ticket says why and until when, in the reader's time zone.
      props.onCooldown(error.body.until);
      return { fields: {}, form: `Not placed: trading is paused until ${formatDateTime(error.body.until)} (see above).` };
    }
    const placed = placeApiError(error, controls, CONTROL_OF_CODE);
    // The underlying of an options order is the ticket's symbol box.
    const { underlying, ...fields } = placed.fields;
    return underlying === undefined ? placed : { ...placed, fields: { ...fields, symbol: underlying } };
  });
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, place.errors);
  const request = complianceRequestOf(inputs);
  const preview = useCompliancePreview(request);
  const risk = useServerPreview<OptionsPreview>('/api/trade-window/options-orders/preview', options && Object.keys(checkTicket(inputs)).length === 0 ? optionsOrderBody(inputs) : undefined);

  const update = (next: Partial<TicketInputs>) => {
    props.onInputs((current) => ({ ...current, ...next }));
    setRefusal(undefined);
  };
  const pickStrategy = (id: string) => {
    const strategy = choices.find((choice) => String(choice.id) === id);
    if (!strategy) return update({ strategy_id: id });
    const kind: TicketKind = isOptionsType(strategy.strategy_type) ? 'options' : 'equity';
    update({ strategy_id: id, kind, ...(kind === 'options' ? { legs: legsFor(strategy.strategy_type) } : {}) });
  };

  async function submit(event: Event) {
    event.preventDefault();
    if (place.running) return;
    setRefusal(undefined);
    setPlaced(undefined);
    const found = checkTicket(inputs);
    if (Object.keys(found).length > 0) return place.refuse({ fields: found });
    // The verdict shown is sent with the order when it is the verdict of this very ticket (stored as sent while
    // enforcement is off; the server judges for itself when it is on).
    const verdict =
      request && preview.state === 'done' && preview.key === JSON.stringify(request) ? { compliance_checked: true, compliance_compliant: preview.result.compliant } : {};
    const body = { ...(options ? optionsOrderBody(inputs) : equityOrderBody(inputs)), ...verdict };
    const text = JSON.stringify(body);
    const key = unanswered.current?.body === text ? unanswered.current.key : newClientOrderId();
    unanswered.current = { body: text, key };
    await place.start(async () => {
      try {
        const order = await api.post<Order>(options ? '/api/trade-window/options-orders' : '/api/trade-window/orders', { ...body, client_order_id: key });
        unanswered.current = undefined;
        setPlaced(order);
        props.onCooldown(undefined);
        props.onOrdersChanged();
        return order;
      } catch (error) {
        // An answer, even a refusal, settles the key; only a failure to reach the server keeps it for the retry.
        if (!(error instanceof ApiError && error.status === 0)) unanswered.current = undefined;
        // A refused order is stored as rejected: the history shows it.
        if (error instanceof ApiError && error.status === 422) props.onOrdersChanged();
        throw error;
      }
    });
  }

  const errors = place.errors.fields;
  return (
    <section class="trade-ticket" aria-labelledby="ticket-heading">
      <h2 id="ticket-heading">Order ticket</h2>
      <form ref={form} noValidate onSubmit={submit} aria-describedby={place.errors.form ? 'ticket-form-error' : undefined}>
        <Field
          label="Strategy"
          error={errors.strategy_id}
          hint={
            chosen
              ? `${strategyTypeLabel(chosen.strategy_type)}${chosen.inactive ? ', inactive' : ''}: the order is checked against its rules as you fill it in.`
              : 'Optional. With a strategy the order is checked against its rules.'
          }
        >
          {({ id, describedBy, invalid }) => (
            <select id={id} name="strategy_id" aria-describedby={describedBy} aria-invalid={invalid} value={inputs.strategy_id} onChange={(event) => pickStrategy(event.currentTarget.value)}>
              <option value="">No strategy</option>
              {choices.map((choice) => (
                <option key={choice.id} value={String(choice.id)}>
                  {choice.name}
                  {choice.inactive ? ' (inactive)' : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
        <fieldset class="ticket-kind">
          <legend>Trade</legend>
          <label class="check">
            <input type="radio" name="kind" value="equity" checked={!options} onChange={() => update({ kind: 'equity' })} /> Shares
          </label>
          <label class="check">
            <input
              type="radio"
              name="kind"
              value="options"
              checked={options}
              onChange={() => update({ kind: 'options', legs: inputs.legs.length > 0 ? inputs.legs : legsFor(chosen?.strategy_type ?? 'vertical_spread') })}
            />{' '}
            Options
          </label>
        </fieldset>
        <div class="form-grid">
          <SymbolField
            label={options ? 'Underlying' : 'Symbol'}
            hint={options ? 'The ticker the options are on, such as SPY.' : 'Any ticker the market data knows; the demo data has SPX (S&P 500).'}
            purpose="order"
            value={inputs.symbol}
            error={errors.symbol}
            onChange={(symbol) => update({ symbol: symbol.toUpperCase() })}
          />
          {!options && (
            <Field label="Side" error={errors.side}>
              {({ id, describedBy, invalid }) => (
                <select id={id} name="side" aria-describedby={describedBy} aria-invalid={invalid} value={inputs.side} onChange={(event) => update({ side: event.currentTarget.value as OrderSide })}>
                  <option value="buy">Buy</option>
                  <option value="sell">Sell</option>
                </select>
              )}
            </Field>
          )}
          <TextField
            label="Quantity"
            name="qty"
            inputMode="numeric"
            autoComplete="off"
            hint={options ? 'Units of the structure: each leg is one contract of 100 shares per unit.' : 'Whole shares. No shorting: a sell needs the shares.'}
            value={inputs.qty}
            error={errors.qty}
            onInput={(event) => update({ qty: event.currentTarget.value })}
          />
          {!options && (
            <Field label="Order type" error={errors.order_type} hint={inputs.order_type === 'market' ? 'Fills at once at the price shown below.' : 'Fills at the limit or better; else it rests until a newer bar reaches it.'}>
              {({ id, describedBy, invalid }) => (
                <select
                  id={id}
                  name="order_type"
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  value={inputs.order_type}
                  onChange={(event) => update({ order_type: event.currentTarget.value as 'market' | 'limit' })}
                >
                  <option value="market">Market</option>
                  <option value="limit">Limit</option>
                </select>
              )}
            </Field>
          )}
          {!options && inputs.order_type === 'limit' && (
            <TextField
              label="Limit price ($)"
              name="limit_price"
              inputMode="decimal"
              autoComplete="off"
              hint={inputs.side === 'buy' ? 'Per share: the most you pay. A resting buy holds qty × limit of your cash.' : 'Per share: the least you take.'}
              value={inputs.limit_price}
              error={errors.limit_price}
              onInput={(event) => update({ limit_price: event.currentTarget.value })}
            />
          )}
          {options && (
            <Field label="Net price is" hint="A credit sells the structure (you receive the premium); a debit buys it.">
              {({ id, describedBy }) => (
                <select id={id} name="net" aria-describedby={describedBy} value={inputs.net} onChange={(event) => update({ net: event.currentTarget.value as 'debit' | 'credit' })}>
                  <option value="credit">A credit (received)</option>
                  <option value="debit">A debit (paid)</option>
                </select>
              )}
            </Field>
          )}
          {options && (
            <TextField
              label="Net price ($ a share)"
              name="net_price"
              inputMode="decimal"
              autoComplete="off"
              hint="Of the whole structure, per share as quoted (a contract is 100 shares). It is a limit: no option quotes are stored, so the order fills at once at the modeled price when that is no worse, else it is refused."
              value={inputs.net_price}
              error={errors.net_price}
              onInput={(event) => update({ net_price: event.currentTarget.value })}
            />
          )}
        </div>
        {!options && <TicketPrice inputs={inputs} available={props.available} />}
        {options && <LegsEditor legs={inputs.legs} errors={errors} onChange={(legs) => update({ legs })} />}
        {options && <RiskAtExpiry preview={risk} />}
        {!refusal && <ComplianceVerdict strategy={chosen?.name} preview={preview} />}
        {refusal && (
          <div class="notice notice--error" role="alert">
            <p>
              <strong>Refused.</strong> {refusal.message} Nothing was bought or sold; the order is in the history as rejected.
            </p>
            <ViolationList violations={refusal.violations} />
          </div>
        )}
        {place.errors.form && (
          <div id="ticket-form-error">
            <Notice kind="error">{place.errors.form}</Notice>
          </div>
        )}
        {placed && (
          <div ref={placedRef} tabIndex={-1}>
            <Notice kind="success">{placedSentence(placed)}</Notice>
          </div>
        )}
        <div class="actions">
          <button type="submit" disabled={place.running}>
            {place.running ? 'Placing…' : options ? 'Place options order' : `Place ${inputs.side} order`}
          </button>
        </div>
      </form>
    </section>
  );
}

/** The soft warning, in a live region present from the start: nothing here stops the order. */
function ComplianceVerdict(props: { strategy: string | undefined; preview: Preview }) {
  const { preview } = props;
  return (
    <div class="ticket-verdict" aria-labelledby="ticket-verdict-heading">
      <h3 id="ticket-verdict-heading">Compliance</h3>
      <div aria-live="polite">
        {props.strategy === undefined && <p class="muted">No strategy: the order is placed without a compliance check.</p>}
        {props.strategy !== undefined && preview.state === 'idle' && <p class="muted">The verdict on “{props.strategy}” appears as you fill in the ticket.</p>}
        {props.strategy !== undefined && preview.state === 'checking' && <p class="muted">Checking against “{props.strategy}”…</p>}
        {props.strategy !== undefined && preview.state === 'failed' && <p class="muted">The check could not run: {preview.message}</p>}
        {props.strategy !== undefined && preview.state === 'done' && (
          <>
            <Verdict result={preview.result} what="order" />
            {!preview.result.compliant && <p class="muted">A warning: you may still place it, unless the server enforces compliance, which refuses it.</p>}
          </>
        )}
      </div>
    </div>
  );
}
