import { useEffect, useState } from 'preact/hooks';
import { formatDateTime } from '../ui/format';

/**
 * While the recovery cooldown holds, a banner with its end time; it goes by itself when the time passes. The end
 * comes from the portfolio's `trade_cooldown_until` (so the banner shows as soon as the Trade page loads) or from a
 * 403 `trade_cooldown` answering an order (docs/web-app.md, "Trade").
 */
export function CooldownBanner(props: { until: string | undefined }) {
  const end = props.until ? new Date(props.until).getTime() : NaN;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!Number.isFinite(end) || end <= Date.now()) return;
    // setTimeout holds at most 2^31 − 1 ms (~24.8 days); the cooldown is 72 hours.
    const timer = setTimeout(() => setNow(Date.now()), Math.min(end - Date.now() + 50, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [end, now]);
  if (!props.until || !Number.isFinite(end) || end <= now) return null;
  return (
    <div class="notice notice--info cooldown-banner" role="status">
      <strong>Trading is paused until {formatDateTime(props.until)}.</strong> Your passkeys were reset by an account recovery: for 72 hours no order can be
      placed, in case the recovery was not yours. Your portfolio and orders stay visible.
    </div>
  );
}
