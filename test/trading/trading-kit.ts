import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Bar } from '../../src/market/bar-series.js';
import { storeBars } from '../../src/market/bar-store.service.js';
import { importBarsFile } from '../../src/market/import-bars.js';
import type { Clock } from '../../src/platform/clock.js';
import type { Db, DialectName } from '../../src/platform/db/database.js';
import type { BarsSource } from '../../src/platform/db/schema.js';
import { fillRestingOrders } from '../../src/trading/resting-orders.service.js';
import type { HttpClient } from '../helpers/http-client.js';

export const ORDERS = '/api/trade-window/orders';
export const OPTIONS_ORDERS = '/api/trade-window/options-orders';
export const PORTFOLIO = '/api/trade-window/portfolio';

export function placeOrder(client: HttpClient, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return client.post(ORDERS, body);
}

export function placeOptionsOrder(client: HttpClient, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return client.post(OPTIONS_ORDERS, body);
}

export async function portfolioOf(client: HttpClient): Promise<Record<string, any>> {
  const response = await client.get(PORTFOLIO);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

export function cancelOrder(client: HttpClient, id: string): Promise<LightMyRequestResponse> {
  return client.request('DELETE', `${ORDERS}/${id}`);
}

/** A bar with the same open, high, low and close unless told otherwise. */
export function bar(date: string, close: number, more: Partial<Bar> = {}): Bar {
  return { date, open: close, high: close, low: close, close, volume: 1000, ...more };
}

/** Stores `bars` as from `source` (an import unless told): a provider refreshes only the symbols it filled. */
export async function seedBars(db: Db, clock: Clock, symbol: string, bars: readonly Bar[], source: BarsSource = 'import'): Promise<void> {
  await storeBars(db, clock, { symbol, bars, source });
}

/** `tradelab import-bars` as the CLI runs it: a Yahoo-style CSV through the bar store, resting orders filled after. */
export async function importBars(db: Db, dialect: DialectName, clock: Clock, symbol: string, bars: readonly Bar[]): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-bars-'));
  const file = path.join(dir, `${symbol}.csv`);
  const lines = bars.map((b) => `${b.date},${b.open},${b.high},${b.low},${b.close},${b.close},${b.volume}`);
  fs.writeFileSync(file, ['Date,Open,High,Low,Close,Adj Close,Volume', ...lines].join('\n'));
  const quiet = { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream;
  try {
    await importBarsFile(db, clock, { file, symbol, progressStream: quiet, onBarsStored: async (s) => void (await fillRestingOrders({ db, dialect, clock }, s)) });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** What a refused order must leave alone: the user's account, positions and every order but the new one. */
export async function stateOf(db: Db, userId: string): Promise<unknown> {
  const [account, positions, orders] = await Promise.all([
    db.selectFrom('paper_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('paper_positions').selectAll().where('user_id', '=', userId).orderBy('symbol').execute(),
    db.selectFrom('orders').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute(),
  ]);
  return { account, positions, orders };
}

export async function orderRows(db: Db, userId: string) {
  return db.selectFrom('orders').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
}

export async function auditActions(db: Db, orderId: string): Promise<string[]> {
  const rows = await db.selectFrom('audit_entries').select('action').where('target_kind', '=', 'order').where('target_id', '=', orderId).orderBy('id').execute();
  return rows.map((row) => row.action);
}

/**
 * 21 daily bars ending on `lastDate` at `close`, alternating with closes 1 % above it: enough for a 20-day realized
 * volatility (ln 1.01 × √(20/19) × √252, about 16.2 %), which options orders are priced with.
 */
export function volatileBars(lastDate: string, close: number): Bar[] {
  const last = Date.parse(`${lastDate}T00:00:00Z`);
  return Array.from({ length: 21 }, (_, i) => {
    const date = new Date(last - (20 - i) * 86_400_000).toISOString().slice(0, 10);
    return bar(date, i % 2 === 0 ? close : Math.round(close * 101) / 100);
  });
}
