import { tradeOf } from '../compliance/compliance.service.js';
import type { ComplianceRequest } from '../compliance/compliance.schema.js';
import type { OptionLeg } from '../compliance/compliance-rules.js';
import { sha256Hex } from '../platform/ids.js';
import { BadRequest } from '../platform/errors.js';
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
  /** SHA-256 of the route and the canonical body: the same key with another body is a conflict. */
  readonly requestHash: string;
}

/** `POST orders`: 400 for a malformed ticker, a limit order without `limit_price`, a market order with one. */
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
  return {
    kind: 'equity',
    symbol: body.symbol,
    side: body.side,
    qty: body.qty,
    orderType,
    limitPrice: body.limit_price ?? null,
    legs: [],
    ...common(body, 'equity'),
    compliance,
  };
}

/**
 * `POST options-orders`: 400 for a malformed underlying or leg, or a leg on another underlying. The side is the
 * net price's: a debit (≥ 0) buys the structure, a credit sells it; the rules see the price as quoted (positive).
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
  return {
    kind: 'options',
    symbol: body.underlying,
    side,
    qty: body.qty,
    orderType: 'limit',
    limitPrice: body.net_price,
    legs: trade.legs.map((leg, index) => ({ ...leg, ratio: body.legs[index]!.ratio })),
    ...common(body, 'options'),
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
