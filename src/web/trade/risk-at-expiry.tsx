import type { Preview } from './use-compliance-preview';
import { breakevensText, netPriceText, riskAmount } from './order-words';
import type { OptionsPreview } from './types';

/**
 * An options ticket's modeled price and its maximum loss, maximum gain and breakevens at the price it would fill at
 * (`POST /api/trade-window/options-orders/preview`), in a live region present from the start, before the order is
 * placed. A price the legs could never be worth, or a limit the modeled price does not reach, is said here, as the
 * order would be refused.
 */
export function RiskAtExpiry(props: { preview: Preview<OptionsPreview> }) {
  const { preview } = props;
  return (
    <div class="ticket-risk" aria-labelledby="ticket-risk-heading">
      <h3 id="ticket-risk-heading">At expiry</h3>
      <div aria-live="polite">
        {preview.state === 'idle' && <p class="muted">The most the order can lose and gain, and where it breaks even, appear as you fill in the legs and the net price.</p>}
        {preview.state === 'checking' && <p class="muted">Working out the risk…</p>}
        {preview.state === 'failed' && <p class="notice notice--error">Not placeable as it stands: {preview.message}</p>}
        {preview.state === 'done' && <ModeledPrice modeled={preview.result.modeled} />}
        {preview.state === 'done' && (
          <dl class="risk-figures">
            <div>
              <dt>Maximum loss</dt>
              <dd>{riskAmount(preview.result.max_loss)}</dd>
            </div>
            <div>
              <dt>Maximum gain</dt>
              <dd>{riskAmount(preview.result.max_gain)}</dd>
            </div>
            <div>
              <dt>Breakeven</dt>
              <dd>{breakevensText(preview.result)}</dd>
            </div>
          </dl>
        )}
      </div>
    </div>
  );
}

/** The modeled ask (the legs as sent) and bid (the reverse order), and whether the net price (a limit) reaches the ask it would fill at. */
function ModeledPrice(props: { modeled: OptionsPreview['modeled'] }) {
  const { bid, ask, volatility, marketable } = props.modeled;
  return (
    <>
      <p>
        Modeled price (Black–Scholes, 20-day realized volatility {(volatility * 100).toFixed(1)} %): these legs fill at {netPriceText(ask)} a share (ask), the
        reverse order at {netPriceText(-bid)} (bid).
      </p>
      {marketable ? (
        <p class="muted">The order fills at once at the ask, {netPriceText(ask)}; the figures below are at that price.</p>
      ) : (
        <p class="notice notice--error">Not marketable: the net price is a limit and does not reach the ask, {netPriceText(ask)}, so the order would be refused.</p>
      )}
    </>
  );
}
