import { decimalOf } from './decimal-text';
import type { ComplianceRequest, OrderSide } from './types';

/** An OCC option symbol: root (1–6 letters), expiry YYMMDD, C or P, strike × 1000 in 8 digits. */
export const OCC_SYMBOL = /^[A-Z]{1,6}\d{6}[CP]\d{8}$/;

/** The most shares or contracts one check takes (src/compliance/compliance.schema.ts). */
export const MAX_QTY = 10_000_000;

export interface LegInput {
  readonly symbol: string;
  readonly side: OrderSide;
}

/** The trade check form's state, as typed. */
export interface TradeInputs {
  readonly strategy_id: string;
  readonly symbol: string;
  readonly side: OrderSide;
  readonly qty: string;
  readonly price: string;
  readonly order_type: 'market' | 'limit';
  readonly legs: readonly LegInput[];
}

/** Client-side checks, keyed by the API's field names (`legs.<index>.symbol` for a leg); the server checks again. */
export function checkTradeInputs(inputs: TradeInputs, options: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!inputs.strategy_id) errors.strategy_id = 'Choose the strategy to check against.';
  if (!inputs.symbol.trim()) errors.symbol = 'Enter the ticker to trade, such as SPX.';
  const qty = decimalOf(inputs.qty);
  if (inputs.qty.trim() === '' || !Number.isInteger(qty) || qty < 1 || qty > MAX_QTY) errors.qty = 'Enter a whole number of shares or contracts, 1 or more.';
  const price = decimalOf(inputs.price);
  if (inputs.price.trim() !== '' && (!Number.isFinite(price) || price <= 0)) errors.price = 'Enter a price above 0, or leave it empty.';
  else if (inputs.price.trim() === '' && inputs.order_type === 'limit') errors.price = 'A limit order needs its limit price.';
  if (options) {
    inputs.legs.forEach((leg, index) => {
      if (leg.symbol.trim() && !OCC_SYMBOL.test(leg.symbol.trim())) errors[`legs.${index}.symbol`] = 'Not an OCC option symbol: SPY261218C00450000 is the form.';
    });
  }
  return errors;
}

export function requestOf(inputs: TradeInputs, options: boolean): ComplianceRequest {
  const legs = inputs.legs.filter((leg) => leg.symbol.trim() !== '').map((leg) => ({ symbol: leg.symbol.trim(), side: leg.side }));
  return {
    strategy_id: Number(inputs.strategy_id),
    symbol: inputs.symbol.trim().toUpperCase(),
    qty: decimalOf(inputs.qty),
    side: inputs.side,
    ...(inputs.price.trim() ? { price: decimalOf(inputs.price) } : {}),
    order_type: inputs.order_type,
    ...(options && legs.length > 0 ? { legs } : {}),
  };
}
