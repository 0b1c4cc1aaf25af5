import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, describeError } from '../api';
import { useSession } from '../auth/session';
import { ViolationList } from '../library/compliance-outcome';
import { isSignedOut } from '../library/errors';
import type { StrategyChoice } from '../library/strategy-choices';
import { Notice } from '../ui/form';
import { formatDateTime } from '../ui/format';
import { PAGE_SIZE, Pager, rangeText } from '../ui/pager';
import { orderPrice, orderWhat, REASONS, settlementText, STATUS_LABELS } from './order-words';
import { fillWhen } from './price-words';
import type { Order, OrderStatus } from './types';

/**
 * The order history (`GET /api/trade-window/orders`), newest first, 50 a page, filtered by status; a resting
 * order has a Cancel button. Reloaded whenever `version` changes.
 */
export function OrderHistory(props: { version: number; choices: readonly StrategyChoice[]; onCanceled: () => void }) {
  const { reload } = useSession();
  const [status, setStatus] = useState<OrderStatus | ''>('');
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<{ orders: readonly Order[]; total: number } | undefined>(undefined);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | undefined>(undefined);
  const [canceling, setCanceling] = useState<string | undefined>(undefined);
  const messageRef = useRef<HTMLDivElement>(null);
  useEffect(() => messageRef.current?.focus(), [message]);
  /** The version a cancel here leads to: its message stays; any other change (an order placed) clears it. */
  const ownVersion = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (props.version !== ownVersion.current) setMessage(undefined);
  }, [props.version]);

  // Only the latest load may show its answer: a slow one for a filter already left is dropped.
  const loads = useRef(0);
  useEffect(() => {
    const call = (loads.current += 1);
    const query = `limit=${PAGE_SIZE}&offset=${offset}${status ? `&status=${status}` : ''}`;
    api.getWithHeaders<Order[]>(`/api/trade-window/orders?${query}`).then(
      ({ data, headers }) => {
        if (call !== loads.current) return;
        if (data.length === 0 && offset > 0) return setOffset(Math.max(0, offset - PAGE_SIZE));
        setPage({ orders: data, total: Number(headers.get('x-total-count') ?? data.length) });
      },
      (error: unknown) => {
        if (call !== loads.current) return;
        if (isSignedOut(error)) return void reload();
        setMessage({ kind: 'error', text: `Your orders could not be loaded: ${describeError(error)}` });
      },
    );
  }, [props.version, status, offset]);

  const cancel = async (order: Order) => {
    setCanceling(order.id);
    setMessage(undefined);
    try {
      await api.delete(`/api/trade-window/orders/${order.id}`);
      setMessage({ kind: 'success', text: `Canceled the ${order.side} of ${orderWhat(order)}.` });
    } catch (error) {
      if (isSignedOut(error)) return void reload();
      const text = error instanceof ApiError && error.status === 409 ? `It can no longer be canceled: ${error.message}` : `It could not be canceled: ${describeError(error)}`;
      setMessage({ kind: 'error', text });
    } finally {
      setCanceling(undefined);
      ownVersion.current = props.version + 1;
      props.onCanceled();
    }
  };

  const strategyName = (id: number | null) => (id === null ? '—' : (props.choices.find((choice) => choice.id === id)?.name ?? `#${id}`));
  return (
    <section class="trade-orders" aria-labelledby="orders-heading">
      <h2 id="orders-heading">Orders</h2>
      <div class="library__bar">
        <label class="inline-field">
          <span>Status</span>
          <select
            value={status}
            onChange={(event) => {
              setStatus(event.currentTarget.value as OrderStatus | '');
              setOffset(0);
            }}
          >
            <option value="">All orders</option>
            {(Object.keys(STATUS_LABELS) as OrderStatus[]).map((value) => (
              <option key={value} value={value}>
                {STATUS_LABELS[value]} only
              </option>
            ))}
          </select>
        </label>
        {page && (
          <span class="muted" id="orders-count">
            {rangeText({ offset, shown: page.orders.length, total: page.total })}{' '}
            {page.total === 1 ? 'order' : 'orders'}
          </span>
        )}
      </div>
      {message && (
        <div ref={messageRef} tabIndex={-1}>
          <Notice kind={message.kind}>{message.text}</Notice>
        </div>
      )}
      {!page && !message && <p class="muted">Loading your orders…</p>}
      {page && page.total === 0 && <p class="muted">{status ? `No ${STATUS_LABELS[status].toLowerCase()} orders.` : 'No orders yet: place one with the ticket above.'}</p>}
      {page && page.orders.length > 0 && (
        <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="orders-heading" aria-describedby="orders-count">
          <table class="orders-table">
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">Price</th>
                <th scope="col">Type</th>
                <th scope="col">Strategy</th>
                <th scope="col">Placed</th>
              </tr>
            </thead>
            <tbody>
              {page.orders.map((order) => (
                <tr key={order.id}>
                  <th scope="row" class="orders-table__what">
                    {order.side === 'buy' ? 'Buy' : 'Sell'} {orderWhat(order)}
                  </th>
                  <td class="orders-table__status">
                    <span class={`badge status status--${order.status}`}>{STATUS_LABELS[order.status]}</span>
                    {order.status === 'accepted' && (
                      <button type="button" class="secondary" disabled={canceling === order.id} onClick={() => cancel(order)}>
                        Cancel<span class="visually-hidden"> the {order.side} of {orderWhat(order)}</span>
                      </button>
                    )}
                    {order.status === 'rejected' && order.reject_reason && (
                      <span class="orders-table__reason">
                        {REASONS[order.reject_reason] ?? order.reject_reason} <span class="violations__rule">({order.reject_reason})</span>
                      </span>
                    )}
                    {order.settlement && <span class="orders-table__reason">{settlementText(order)}</span>}
                    {order.status === 'filled' && fillWhen(order) && <span class="orders-table__reason">{fillWhen(order)}</span>}
                    {order.violations && order.violations.length > 0 && <ViolationList violations={order.violations} />}
                  </td>
                  <td class="num">{orderPrice(order)}</td>
                  <td>{order.settlement ? 'settlement' : order.kind === 'options' ? 'options' : order.order_type}</td>
                  <td>{strategyName(order.strategy_id)}</td>
                  <td>{formatDateTime(order.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page && <Pager label="Pages of orders" offset={offset} shown={page.orders.length} total={page.total} go={setOffset} />}
    </section>
  );
}
