import type { UserRow } from '../auth/users.repo.js';
import type { Clock } from '../platform/clock.js';
import type { OrderRefusal } from './trading.schema.js';

/** The refusal's code, and a rejected order's `reject_reason` for it. */
export const TRADE_COOLDOWN = 'trade_cooldown';

/** The end of the user's recovery cooldown while it holds on `clock` (refused at +72 h − 1 ms, taken at +72 h), else null. */
export function cooldownEnd(user: Pick<UserRow, 'trade_cooldown_until'> | undefined, clock: Clock): string | null {
  const until = user?.trade_cooldown_until ?? null;
  return until !== null && new Date(until).getTime() > clock.now().getTime() ? until : null;
}

/** The 403 body: `until` is also in the message, which a rejected order stores (`cooldownRefusalOf` reads it back). */
export function cooldownRefusal(until: string): OrderRefusal & { until: string } {
  return { error: TRADE_COOLDOWN, message: `Your passkeys were reset by recovery: no order can be placed and the portfolio cannot be reset until ${until}.`, until };
}

/** A stored cooldown refusal's body again, `until` taken from its message (a retry by `client_order_id` repeats it). */
export function cooldownRefusalOf(refusal: OrderRefusal): OrderRefusal {
  const until = /until (\S+)\.$/.exec(refusal.message)?.[1];
  return until === undefined ? refusal : { ...refusal, until };
}
