import { HOUR, MINUTE, SECOND } from '../platform/clock.js';

/** The contract's Limits table, in one place. */
export const LIFETIMES = {
  challenge: 60 * SECOND,
  emailLink: 15 * MINUTE,
  session: 12 * HOUR,
  stepUp: 24 * HOUR,
  tradeCooldown: 72 * HOUR,
} as const;

export const SESSION_COOKIE = 'service_session';
