import type { Preview } from './use-compliance-preview';
import { breakevensText, riskAmount } from './order-words';
import type { OptionsRisk } from './types';

/**
 * An options ticket's maximum loss, maximum gain and breakevens at its net price (`POST
 * /api/trade-window/options-orders/preview`), in a live region present from the start, before the order is placed.
 * A price the legs could never be worth is said here, with its bound, as the order would be refused.
 */
export function RiskAtExpiry(props: { preview: Preview<OptionsRisk> }) {
  const { preview } = props;
  return (
    <div class="ticket-risk" aria-labelledby="ticket-risk-heading">
      <h3 id="ticket-risk-heading">At expiry</h3>
      <div aria-live="polite">
        {preview.state === 'idle' && <p class="muted">The most the order can lose and gain, and where it breaks even, appear as you fill in the legs and the net price.</p>}
        {preview.state === 'checking' && <p class="muted">Working out the risk…</p>}
        {preview.state === 'failed' && <p class="notice notice--error">Not placeable as it stands: {preview.message}</p>}
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
