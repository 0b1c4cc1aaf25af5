import { tradeOf } from '../compliance/compliance.service.js';
import type { ComplianceRequest } from '../compliance/compliance.schema.js';
import type { OptionLeg } from '../compliance/compliance-rules.js';
import { sha256Hex } from '../platform/ids.js';
import { BadRequest } from '../platform/errors.js';
import { CONTRACT_MULTIPLIER } from '../strategies/strategy-policy.js';
import { money } from '../compliance/compliance-rules.js';
import type { PlaceOptionsOrderBody, PlaceOrderBody } from './trading.schema.js';

/** A validated order request: what is stored of it, what the compliance rules see, and the key to retry it by. */
export interface OrderDraft {
  readonly kind: 'equity' | 'options';
  readonly symbol: string;
  readonly side: 'buy' | 'sell';
  readonly qty: number;
  readonly orderType: 'market' | 'limit';
  /** A limit order's limit; an options order's net price per share (negative: a credit). */
  readonly limitPrice: number | null;
  readonly legs: readonly (OptionLeg & { readonly ratio: number })[];
  readonly strategyId: number | null;
  readonly clientOrderId: string | null;
  readonly clientFlags: { readonly checked: boolean | null; readonly compliant: boolean | null };
  /** What the compliance rules evaluate (the same request the compliance check takes). */
  readonly compliance: ComplianceRequest;
  /** SHA-256 of the route and the normalised body (defaults filled, OCC symbols compact): the same key with another order is a conflict. */
  readonly requestHash: string;
}

/**
 * The most an order may be worth, in cents: qty × |price| × multiplier (10 billion dollars). Far beyond any paper
 * account, and it keeps every amount of an order, and sums of many, inside the safe integers of cents.
 */
export const MAX_NOTIONAL_CENTS = 1e12;

function checkNotional(qty: number, price: number, multiplier: number, field: string): void {
  // A double is exact enough here: the bound is a sanity limit, not money that is booked.
  const cents = qty * Math.abs(price) * multiplier * 100;
  if (cents > MAX_NOTIONAL_CENTS) {
    throw new BadRequest('validation_failed', `The order is worth ${money(cents / 100)} (qty × price${multiplier === 1 ? '' : ` × ${multiplier}`}); at most ${money(MAX_NOTIONAL_CENTS / 100)} per order.`, [
      { field, message: 'makes the order worth more than the maximum' },
    ]);
  }
}

/** `POST orders`: 400 for a malformed ticker, a limit order without `limit_price`, a market order with one, a limit order worth more than the maximum. */
export function equityDraft(body: PlaceOrderBody): OrderDraft {
  const orderType = body.order_type ?? 'market';
  if (orderType === 'limit' && body.limit_price === undefined) {
    throw new BadRequest('validation_failed', 'A limit order needs a limit_price.', [{ field: 'body.limit_price', message: 'is required for a limit order' }]);
  }
  if (orderType === 'market' && body.limit_price !== undefined) {
    throw new BadRequest('validation_failed', 'A market order has no limit_price.', [{ field: 'body.limit_price', message: 'is only for limit orders' }]);
  }
  const compliance: ComplianceRequest = {
    strategy_id: body.strategy_id ?? 0,
    symbol: body.symbol,
    qty: body.qty,
    side: body.side,
    order_type: orderType,
    ...(body.limit_price !== undefined ? { price: body.limit_price } : {}),
  };
  tradeOf(compliance);
  if (body.limit_price !== undefined) checkNotional(body.qty, body.limit_price, 1, 'body.limit_price');
  return {
    kind: 'equity',
    symbol: body.symbol,
    side: body.side,
    qty: body.qty,
    orderType,
    limitPrice: body.limit_price ?? null,
    legs: [],
    // Hashed as normalised: omitting order_type and sending "market" are one request.
    ...common({ ...body, order_type: orderType }, 'equity'),
    compliance,
  };
}

/**
 * `POST options-orders`: 400 for a malformed underlying or leg, a leg on another underlying, the same contract on two
 * legs (either OCC spelling: bought and sold at once it is no position, only the price), a net price whose sign
 * the legs cannot have (all legs bought for a credit, all sold for a debit), or an order worth more than the maximum.
 * The side is the net price's: a debit (≥ 0) buys the structure, a credit sells it; the rules see the price as
 * quoted (positive).
 */
export function optionsDraft(body: PlaceOptionsOrderBody): OrderDraft {
  const side = body.net_price < 0 ? 'sell' : 'buy';
  const compliance: ComplianceRequest = {
    strategy_id: body.strategy_id ?? 0,
    symbol: body.underlying,
    qty: body.qty,
    side,
    order_type: 'limit',
    price: Math.abs(body.net_price),
    legs: body.legs.map((leg) => ({ symbol: leg.symbol, side: leg.side })),
  };
  const trade = tradeOf(compliance);
  trade.legs.forEach((leg, index) => {
    if (leg.root !== body.underlying) {
      throw new BadRequest('invalid_option_symbol', `Leg ${index + 1}: ${leg.symbol} is an option on ${leg.root}, not on ${body.underlying}.`, [
        { field: `body.legs.${index}.symbol`, message: 'is an option on another underlying' },
      ]);
    }
  });
  trade.legs.forEach((leg, index) => {
    const first = trade.legs.findIndex((other) => other.symbol === leg.symbol);
    if (first < index) {
      throw new BadRequest('validation_failed', `${leg.symbol} is on legs ${first + 1} and ${index + 1}: a contract is one leg (bought or sold, with its ratio).`, [
        { field: `body.legs.${index}.symbol`, message: 'is the same contract as another leg' },
      ]);
    }
  });
  if (body.legs.every((leg) => leg.side === 'buy') && body.net_price < 0) {
    throw new BadRequest('validation_failed', `Every leg is bought, so the order is a debit: net_price must be ≥ 0, not ${body.net_price}.`, [
      { field: 'body.net_price', message: 'is a credit for legs that are all bought' },
    ]);
  }
  if (body.legs.every((leg) => leg.side === 'sell') && body.net_price > 0) {
    throw new BadRequest('validation_failed', `Every leg is sold, so the order is a credit: net_price must be ≤ 0, not ${body.net_price}.`, [
      { field: 'body.net_price', message: 'is a debit for legs that are all sold' },
    ]);
  }
  checkNotional(body.qty, body.net_price, CONTRACT_MULTIPLIER, 'body.net_price');
  const legs = trade.legs.map((leg, index) => ({ ...leg, ratio: body.legs[index]!.ratio }));
  return {
    kind: 'options',
    symbol: body.underlying,
    side,
    qty: body.qty,
    orderType: 'limit',
    limitPrice: body.net_price,
    legs,
    // Hashed as normalised: the legs' OCC symbols in their compact form.
    ...common({ ...body, legs: legs.map((leg) => ({ symbol: leg.symbol, side: leg.side, ratio: leg.ratio })) }, 'options'),
    compliance,
  };
}

function common(body: PlaceOrderBody | PlaceOptionsOrderBody, kind: string) {
  return {
    strategyId: body.strategy_id ?? null,
    clientOrderId: body.client_order_id ?? null,
    clientFlags: { checked: body.compliance_checked ?? null, compliant: body.compliance_compliant ?? null },
    requestHash: sha256Hex(canonicalJson({ kind, body })),
  };
}

/** JSON with object keys sorted, so the same body always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
