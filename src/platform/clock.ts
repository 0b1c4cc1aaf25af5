/** The time source. Injected everywhere a lifetime is checked, so tests move time instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}

export function isoAfter(clock: Clock, milliseconds: number): string {
  return new Date(clock.now().getTime() + milliseconds).toISOString();
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
