import { DAY } from '../platform/clock.js';

/** How long the breach runbook's records are kept; housekeeping and the retention table use this number. */
export const BREACH_RETENTION = {
  /**
   * GDPR art. 33(5): the controller documents every breach so the authority can check compliance. Five years after
   * the close, a common limitation period, then the incident goes with its steps and the list of whom it mailed.
   */
  closedIncidents: 5 * 365 * DAY,
} as const;
