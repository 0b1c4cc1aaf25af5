import type { Clock } from '../../src/platform/clock.js';

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  #now: number;

  constructor(start: Date | string = '2026-01-05T12:00:00.000Z') {
    this.#now = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#now);
  }

  advance(milliseconds: number): void {
    this.#now += milliseconds;
  }

  set(to: Date | string): void {
    this.#now = new Date(to).getTime();
  }
}
