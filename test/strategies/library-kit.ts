import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/app.js';
import type { Db } from '../../src/platform/db/database.js';
import { signedInAccount } from '../helpers/accounts.js';
import { HttpClient } from '../helpers/http-client.js';

/** A signed-in user of the library: an HTTP client with its session cookie and the user's id. */
export interface LibraryUser {
  readonly client: HttpClient;
  readonly userId: string;
}

export async function libraryUser(app: App, db: Db): Promise<LibraryUser> {
  const client = new HttpClient(app);
  const { userId } = await signedInAccount(client, db);
  return { client, userId };
}

/** Every field of a strategy, as a create body. */
export const FULL_STRATEGY = {
  name: 'SPY put credit spreads',
  description: 'Sell 30-delta put spreads, 45 DTE',
  strategy_type: 'vertical_spread',
  is_active: true,
  entry_symbol_allowlist: 'SPY,QQQ',
  entry_max_position_size: 5000,
  entry_allowed_sides: 'sell',
  credit_min_amount: 0.5,
  exit_profit_target_pct: 0.5,
  exit_stop_loss_pct: -1,
  exit_trailing_stop_pct: 0.2,
  exit_max_dte: 45,
  options_spec: { structure: 'put_credit', short_delta: 0.3, width: 5, dte: 45 },
  volatility_symbol: 'VIX',
  entry_rule: 'rsi(close, 14) < 30',
  exit_rule: 'rsi(close, 14) > 70',
} as const;

export async function createStrategy(user: LibraryUser, body: Record<string, unknown>): Promise<Record<string, unknown> & { id: number }> {
  const response = await user.client.post('/api/strategies', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

export function errorOf(response: LightMyRequestResponse): { status: number; error: string; text: string } {
  const body = response.json();
  return { status: response.statusCode, error: body.error, text: `${body.message} ${JSON.stringify(body.details ?? [])}` };
}

/** Every stored strategy row, by id, for "nothing changed" assertions. */
export async function strategyRows(db: Db): Promise<unknown[]> {
  return db.selectFrom('strategies').selectAll().orderBy('id').execute();
}
