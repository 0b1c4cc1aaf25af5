import type { OrderRow } from './orders.repo.js';
import type { Order, OrderRefusal } from './trading.schema.js';

/** The one serializer of a stored order (DESIGN's Order, in its field order). */
export function orderView(row: OrderRow): Order {
  const options = row.asset_class === 'option';
  return {
    id: row.id,
    kind: options ? 'options' : 'equity',
    symbol: options ? null : row.symbol,
    underlying: options ? row.symbol : null,
    side: row.side,
    qty: Number(row.qty),
    order_type: row.order_type,
    limit_price: row.limit_price === null ? null : Number(row.limit_price),
    legs: row.legs === null ? null : JSON.parse(row.legs),
    status: row.status,
    fill_price: row.fill_price === null ? null : Number(row.fill_price),
    filled_at: row.filled_at,
    fill_source: row.fill_source,
    price_at: row.price_at,
    strategy_id: row.strategy_id === null ? null : Number(row.strategy_id),
    compliance_checked: row.compliance_checked,
    compliance_compliant: row.compliance_compliant,
    reject_reason: row.reject_reason,
    violations: row.violations === null ? null : JSON.parse(row.violations),
    client_order_id: row.client_order_id,
    settlement:
      row.settles_expiry === null
        ? null
        : { expiry: row.settles_expiry, underlying_close: Number(row.settlement_close), close_date: row.settlement_close_date ?? row.settles_expiry },
    created_at: row.created_at,
  };
}

/** The refusal a rejected order was answered with, rebuilt from its row (a retry repeats it). */
export function refusalOf(row: OrderRow): OrderRefusal {
  const body: OrderRefusal = { error: row.reject_reason ?? 'rejected', message: row.reject_message ?? 'The order was refused.' };
  return row.violations === null ? body : { ...body, violations: JSON.parse(row.violations) };
}
