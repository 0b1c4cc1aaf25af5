import { useState } from 'preact/hooks';
import { api, ApiError, describeError } from '../api';
import { ConfirmDelete } from '../ui/confirm-delete';
import { formatCount } from '../ui/format';
import { placedSentence } from './order-words';
import { newClientOrderId } from './ticket-inputs';
import type { Order } from './types';

/** What closing a position led to: the fill's sentence, or why it was not placed (and whether the history changed). */
export type CloseOutcome = { readonly kind: 'success' | 'error'; readonly text: string; readonly stored: boolean; readonly until?: string };

/**
 * "Close…" on a share position: asks first, then sells the whole quantity at the market through the same order route
 * as the ticket (`POST /api/trade-window/orders`, with an idempotency key), so the recovery cooldown, compliance and
 * the shares held back by resting sells apply as to any order.
 */
export function ClosePosition(props: { symbol: string; qty: number; onDone: (outcome: CloseOutcome) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const what = `${formatCount(props.qty)} ${props.symbol}`;
  const close = async () => {
    setBusy(true);
    try {
      const order = await api.post<Order>('/api/trade-window/orders', { symbol: props.symbol, side: 'sell', qty: props.qty, client_order_id: newClientOrderId() });
      setConfirming(false);
      props.onDone({ kind: 'success', text: `Closed the ${props.symbol} position. ${placedSentence(order)}`, stored: true });
    } catch (error) {
      const until = error instanceof ApiError && error.code === 'trade_cooldown' && typeof error.body.until === 'string' ? error.body.until : undefined;
      // A refusal (422, 403) is stored as a rejected order: the history shows it.
      const stored = error instanceof ApiError && (error.status === 422 || error.status === 403);
      props.onDone({ kind: 'error', text: `The ${props.symbol} position was not closed: ${describeError(error)}`, stored, ...(until ? { until } : {}) });
    } finally {
      setBusy(false);
    }
  };
  if (!confirming) {
    return (
      <button type="button" class="secondary" onClick={() => setConfirming(true)}>
        Close…<span class="visually-hidden"> the {props.symbol} position</span>
      </button>
    );
  }
  return (
    <ConfirmDelete
      class="position__confirm"
      name={`${props.symbol} position`}
      question={`Close the ${props.symbol} position?`}
      deleteLabel={`Sell ${what}`}
      busy={busy}
      onDelete={close}
      onKeep={() => setConfirming(false)}
    >
      Sell all {what} at the market price? An order like any other: the cooldown applies.
    </ConfirmDelete>
  );
}
