import { AppError } from '../platform/errors.js';

/** The market-data provider answered, but not with something we can use (bad keys, malformed body). */
export class BadGateway extends AppError {
  readonly status = 502;
}

/** The market-data provider did not answer in time. */
export class GatewayTimeout extends AppError {
  readonly status = 504;
}
