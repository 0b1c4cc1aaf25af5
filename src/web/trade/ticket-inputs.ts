import { decimalOf } from '../library/decimal-text';
import { OCC_SYMBOL, MAX_QTY, type LegInput } from '../library/trade-inputs';
import type { ComplianceRequest, OrderSide } from '../library/types';
import type { PlaceOptionsOrderBody, PlaceOrderBody } from './types';

/** The highest price or net price per share an order takes (src/trading/trading.schema.ts `MAX_PRICE`). */
export const MAX_PRICE = 1_000_000_000;

export type TicketKind = 'equity' | 'options';

/** The order ticket as typed: one state for both kinds, so switching kind keeps what both share. */
export interface TicketInputs {
  readonly kind: TicketKind;
  /** A strategy id, or '' for an order without a strategy (no compliance step). */
  readonly strategy_id: string;
  /** The ticker; for an options order the underlying. */
  readonly symbol: string;
  readonly side: OrderSide;
  readonly qty: string;
  readonly order_type: 'market' | 'limit';
  readonly limit_price: string;
  readonly legs: readonly LegInput[];
  /** Options: the net price per share, as a positive amount; `net` says whether it is paid or received. */
  readonly net_price: string;
  readonly net: 'debit' | 'credit';
}

export const BLANK_TICKET: TicketInputs = {
  kind: 'equity',
  strategy_id: '',
  symbol: '',
  side: 'buy',
  qty: '',
  order_type: 'market',
  limit_price: '',
  legs: [],
  net_price: '',
  net: 'credit',
};

/** Client-side checks, keyed by the API's field names (`legs.<index>.symbol` for a leg); the server checks again. */
export function checkTicket(inputs: TicketInputs): Record<string, string> {
  const errors: Record<string, string> = {};
  const options = inputs.kind === 'options';
  if (!inputs.symbol.trim()) errors.symbol = options ? 'Enter the underlying, such as SPY.' : 'Enter the ticker to trade, such as SPX.';
  const qty = decimalOf(inputs.qty);
  if (inputs.qty.trim() === '' || !Number.isInteger(qty) || qty < 1 || qty > MAX_QTY) {
    errors.qty = options ? 'Enter a whole number of contracts, 1 or more.' : 'Enter a whole number of shares, 1 or more.';
  }
  if (options) {
    const net = decimalOf(inputs.net_price);
    if (!Number.isFinite(net) || net < 0 || net > MAX_PRICE) errors.net_price = 'Enter the net price per share, 0 or more (a credit as a positive amount).';
    if (!inputs.legs.some((leg) => leg.symbol.trim() !== '')) errors.legs = 'Add at least one leg with its option symbol.';
    inputs.legs.forEach((leg, index) => {
      if (leg.symbol.trim() && !OCC_SYMBOL.test(leg.symbol.trim())) errors[`legs.${index}.symbol`] = 'Not an OCC option symbol: SPY261218C00450000 is the form.';
    });
  } else if (inputs.order_type === 'limit') {
    const limit = decimalOf(inputs.limit_price);
    if (inputs.limit_price.trim() === '') errors.limit_price = 'A limit order needs its limit price.';
    else if (!Number.isFinite(limit) || limit <= 0 || limit > MAX_PRICE) errors.limit_price = 'Enter a price above 0 per share.';
  }
  return errors;
}

const strategyOf = (inputs: TicketInputs) => (inputs.strategy_id ? { strategy_id: Number(inputs.strategy_id) } : {});
const filledLegs = (inputs: TicketInputs) => inputs.legs.filter((leg) => leg.symbol.trim() !== '').map((leg) => ({ symbol: leg.symbol.trim(), side: leg.side }));

/** The options order's net price as the API takes it: positive a debit paid, negative a credit received. */
export function signedNetPrice(inputs: TicketInputs): number {
  const amount = decimalOf(inputs.net_price);
  return inputs.net === 'credit' && amount !== 0 ? -amount : amount;
}

/** `POST /api/trade-window/orders` body of a checked equity ticket (without the idempotency key and verdict). */
export function equityOrderBody(inputs: TicketInputs): PlaceOrderBody {
  return {
    symbol: inputs.symbol.trim().toUpperCase(),
    side: inputs.side,
    qty: decimalOf(inputs.qty),
    order_type: inputs.order_type,
    ...(inputs.order_type === 'limit' ? { limit_price: decimalOf(inputs.limit_price) } : {}),
    ...strategyOf(inputs),
  };
}

/** `POST /api/trade-window/options-orders` body of a checked options ticket; every leg one contract per unit (ratio 1). */
export function optionsOrderBody(inputs: TicketInputs): PlaceOptionsOrderBody {
  return {
    underlying: inputs.symbol.trim().toUpperCase(),
    legs: filledLegs(inputs).map((leg) => ({ ...leg, ratio: 1 })),
    qty: decimalOf(inputs.qty),
    net_price: signedNetPrice(inputs),
    ...strategyOf(inputs),
  };
}

/**
 * The compliance check of the order the ticket would place, as the order routes build it for enforcement
 * (src/trading/order-drafts.ts): an options order is a limit at its net price as quoted (positive), bought when
 * it is a debit and sold when a credit. Undefined without a strategy or while the ticket has errors.
 */
export function complianceRequestOf(inputs: TicketInputs): ComplianceRequest | undefined {
  if (!inputs.strategy_id || Object.keys(checkTicket(inputs)).length > 0) return undefined;
  const common = { strategy_id: Number(inputs.strategy_id), symbol: inputs.symbol.trim().toUpperCase(), qty: decimalOf(inputs.qty) };
  if (inputs.kind === 'options') {
    const net = signedNetPrice(inputs);
    return { ...common, side: net < 0 ? 'sell' : 'buy', order_type: 'limit', ...(net !== 0 ? { price: Math.abs(net) } : {}), legs: filledLegs(inputs) };
  }
  return {
    ...common,
    side: inputs.side,
    order_type: inputs.order_type,
    ...(inputs.order_type === 'limit' ? { price: decimalOf(inputs.limit_price) } : {}),
  };
}

/** A fresh idempotency key for one order (1–64 characters): a retry of the same ticket reuses it. */
export function newClientOrderId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
