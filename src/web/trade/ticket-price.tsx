import { TICKER } from '../library/strategy-inputs';
import { estimateText, quoteText } from './price-words';
import type { TicketInputs } from './ticket-inputs';
import type { PriceQuote } from './types';
import { useServerGet } from './use-compliance-preview';

/**
 * Before a share order is placed: the price it would fill at now, with its time and source (`GET
 * /api/trade-window/quote`, asked as the order route asks it), and the estimated cost or proceeds and the cash
 * available after, in a live region present from the start.
 */
export function TicketPrice(props: { inputs: TicketInputs; available: number | null }) {
  const { inputs } = props;
  const symbol = inputs.symbol.trim().toUpperCase();
  const quote = useServerGet<PriceQuote>(TICKER.test(symbol) ? `/api/trade-window/quote?symbol=${encodeURIComponent(symbol)}` : undefined);
  const qty = Number(inputs.qty.replace(/,/g, ''));
  const limit = inputs.order_type === 'limit' ? Number(inputs.limit_price.replace(/[$,]/g, '')) : null;
  const ticketComplete = Number.isSafeInteger(qty) && qty >= 1 && (limit === null || (Number.isFinite(limit) && limit > 0));
  return (
    <div class="ticket-price" aria-labelledby="ticket-price-heading">
      <h3 id="ticket-price-heading">Price</h3>
      <div aria-live="polite">
        {quote.state === 'idle' && <p class="muted">The price the order fills at appears when you enter a symbol.</p>}
        {quote.state === 'checking' && <p class="muted">Asking for the price of {symbol}…</p>}
        {quote.state === 'failed' && <p class="muted">No price: {quote.message}</p>}
        {quote.state === 'done' && (
          <>
            <p>
              {inputs.order_type === 'market' ? 'Fills at' : 'Price now'} <strong>{quoteText(quote.result)}</strong>.
            </p>
            {ticketComplete && <p>{estimateText(quote.result, { side: inputs.side, qty, limit, available: props.available })}</p>}
          </>
        )}
      </div>
    </div>
  );
}
