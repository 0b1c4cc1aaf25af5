/**
 * Settles the paper options positions whose expiry has passed (docs/trading.md "Settlement at expiry"): each user's
 * contracts of one underlying and expiry close at their intrinsic value from the underlying's close on the expiry
 * date, in one transaction under the user's account lock, recorded as a settlement order in the user's history.
 * When that close is not stored, the market-data provider is asked for it; without it the contracts stay open,
 * awaiting settlement, and the next run tries again. Idempotent: a run re-reads the contracts under the lock, and
 * the orders' unique (user, underlying, expiry) of a settlement refuses a second one.
 */
import type { FastifyBaseLogger } from 'fastify';
import { newYorkDate } from '../compliance/compliance-rules.js';
import { parseOccSymbol } from '../compliance/occ-symbol.js';
import { barOnOrBefore, hasBarAfter } from '../market/bars.repo.js';
import type { MarketData } from '../market/market-data.service.js';
import { appendAudit } from '../platform/audit/audit.js';
import { isoNow } from '../platform/clock.js';
import type { DbOrTx } from '../platform/db/database.js';
import { newId } from '../platform/ids.js';
import { CONTRACT_MULTIPLIER } from '../strategies/strategy-policy.js';
import { centsToAmount } from './money.js';
import { hasExpired, settle } from './option-settlement.js';
import { settleStructures } from './option-structures.service.js';
import { insertOrder } from './orders.repo.js';
import { listAllOptionPositions, listPositions } from './portfolio.repo.js';
import { bookFill, openAccount, type TradingDeps } from './portfolio.service.js';

export interface SettlementDeps extends Pick<TradingDeps, 'db' | 'dialect' | 'clock'> {
  readonly logger: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** Asked for the expiry's close when the store lacks it; null (`MARKET_DATA_PROVIDER=none`): wait for an import. */
  readonly marketData: Pick<MarketData, 'barsFor'> | null;
}

export interface SettlementRun {
  /** Settlement orders written (one per user, underlying and expiry). */
  readonly settled: number;
  /** Expiries whose close is not stored yet: their contracts await settlement. */
  readonly awaiting: readonly { underlying: string; expiry: string }[];
}

/** The close a contract of `underlying` expiring on `expiry` settles at, and its session's date. */
interface ExpiryClose {
  readonly date: string;
  readonly close: number;
}

/** One run of the settlement job. */
export async function settleExpiredOptions(deps: SettlementDeps): Promise<SettlementRun> {
  const today = newYorkDate(deps.clock.now());
  const due = new Map<string, { underlying: string; expiry: string; users: Set<string> }>();
  for (const position of await listAllOptionPositions(deps.db)) {
    const option = parseOccSymbol(position.symbol);
    if (!option || !hasExpired(option.expiry, today)) continue;
    const key = `${option.root} ${option.expiry}`;
    const group = due.get(key) ?? { underlying: option.root, expiry: option.expiry, users: new Set<string>() };
    group.users.add(position.user_id);
    due.set(key, group);
  }
  let settled = 0;
  const awaiting: { underlying: string; expiry: string }[] = [];
  for (const { underlying, expiry, users } of due.values()) {
    const close = await expiryClose(deps, underlying, expiry, today);
    if (!close) {
      awaiting.push({ underlying, expiry });
      continue;
    }
    for (const userId of users) if (await settleUser(deps, userId, { underlying, expiry, ...close })) settled += 1;
  }
  return { settled, awaiting };
}

/**
 * The underlying's close on the expiry date; when the expiry was no session (a holiday, a Saturday expiry), the last
 * close before it once a later session is stored. Asks the provider when the store lacks it (its failure is logged:
 * the contracts wait for the next run).
 */
async function expiryClose(deps: SettlementDeps, underlying: string, expiry: string, today: string): Promise<ExpiryClose | undefined> {
  const stored = await storedExpiryClose(deps.db, underlying, expiry);
  if (stored || !deps.marketData) return stored;
  try {
    await deps.marketData.barsFor(underlying, expiry, today, 'delayed_sip');
  } catch (error) {
    deps.logger.warn({ err: error, underlying, expiry }, 'options settlement: the provider could not give the expiry close; the contracts wait for it');
    return undefined;
  }
  return storedExpiryClose(deps.db, underlying, expiry);
}

async function storedExpiryClose(db: DbOrTx, underlying: string, expiry: string): Promise<ExpiryClose | undefined> {
  const bar = await barOnOrBefore(db, underlying, expiry);
  if (!bar) return undefined;
  if (bar.date === expiry || (await hasBarAfter(db, underlying, expiry))) return { date: bar.date, close: Number(bar.close) };
  return undefined;
}

/**
 * Settles `userId`'s contracts of one underlying and expiry; false when none is held any more (settled meanwhile) or
 * the account is erased (its positions go with it).
 */
async function settleUser(deps: SettlementDeps, userId: string, at: { underlying: string; expiry: string } & ExpiryClose): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const { account, user } = await openAccount(trx, deps, userId);
    if (!user || user.deleted_at !== null) return false;
    const contracts = (await listPositions(trx, userId))
      .filter((position) => position.asset_class === 'option')
      .filter((position) => {
        const option = parseOccSymbol(position.symbol);
        return option?.root === at.underlying && option.expiry === at.expiry;
      })
      .map((position) => ({ symbol: position.symbol, qty: Number(position.qty) }));
    if (contracts.length === 0) return false;
    const settlement = settle(contracts, at.close, CONTRACT_MULTIPLIER);
    await bookFill(trx, deps.clock, account, settlement.bookings);
    const now = isoNow(deps.clock);
    const order = await insertOrder(trx, {
      id: newId(),
      user_id: userId,
      strategy_id: null,
      asset_class: 'option',
      symbol: at.underlying,
      side: settlement.netPrice < 0 ? 'sell' : 'buy',
      qty: settlement.qty,
      order_type: 'market',
      limit_price: null,
      legs: JSON.stringify(settlement.legs),
      status: 'filled',
      fill_price: settlement.netPrice,
      filled_at: now,
      fill_source: 'expiry_close',
      price_at: at.date,
      compliance_checked: null,
      compliance_compliant: null,
      client_order_id: null,
      settles_expiry: at.expiry,
      settlement_close: at.close,
      settlement_close_date: at.date,
      created_at: now,
      updated_at: now,
    });
    await settleStructures(trx, deps.clock, userId, { underlying: at.underlying, expiry: at.expiry, close: at.close });
    await appendAudit(trx, deps.clock, {
      actorUserId: null,
      action: 'order.settle',
      targetKind: 'order',
      targetId: order.id,
      context: { underlying: at.underlying, expiry: at.expiry, close: at.close, close_date: at.date, received: centsToAmount(settlement.receivedCents) },
    });
    return true;
  });
}
