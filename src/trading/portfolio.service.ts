import type { AuthContext } from '../auth/sessions.service.js';
import { findUserById, lockUserShared, type UserRow } from '../auth/users.repo.js';
import { newYorkDate } from '../compliance/compliance-rules.js';
import { parseOccSymbol } from '../compliance/occ-symbol.js';
import { latestStoredClose } from '../market/bars.repo.js';
import { appendAudit } from '../platform/audit/audit.js';
import { isoNow, type Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { Db, DbOrTx, DialectName } from '../platform/db/database.js';
import { CONTRACT_MULTIPLIER } from '../strategies/strategy-policy.js';
import { applyTrade, FLAT } from './fills.js';
import { amountCents, averagePrice, centsToAmount, safeCents, STARTING_CASH_CENTS } from './money.js';
import { collateralCents, type ContractHolding } from './option-risk.js';
import { hasExpired } from './option-settlement.js';
import { deleteStructures } from './option-structures.repo.js';
import { structuresView } from './option-structures.service.js';
import { listUserRestingOrders, markCanceled } from './orders.repo.js';
import {
  deletePosition,
  deletePositions,
  findAccount,
  findPosition,
  insertAccountIfAbsent,
  listPositions,
  lockAccount,
  updateAccount,
  upsertPosition,
  type AccountRow,
} from './portfolio.repo.js';
import { cooldownEnd, cooldownRefusal } from './cooldown.js';
import type { OrderRefusal, Portfolio } from './trading.schema.js';

export interface TradingDeps {
  readonly db: Db;
  readonly dialect: DialectName;
  readonly clock: Clock;
  readonly config: Pick<Config, 'flagTradeWindowComplianceEnforcement'>;
}

type Caller = Pick<AuthContext, 'userId'>;

/** One position change of a fill: `delta` units (negative sold) of `symbol` for `paidCents` (negative received). */
export interface Booking {
  readonly symbol: string;
  readonly assetClass: 'equity' | 'option';
  readonly delta: number;
  readonly paidCents: number;
}

/**
 * Opens the user's account on first use (100,000 cash) and holds its lock to the end of `trx`, after the user's row
 * (`lockUserShared`: every path locks the user before the account, so an erasure or a recovery and a trade never
 * deadlock). Answers the account and the user as committed: erased or in cooldown is the caller's to refuse.
 */
export async function openAccount(trx: DbOrTx, deps: Pick<TradingDeps, 'dialect' | 'clock'>, userId: string): Promise<{ account: AccountRow; user: UserRow | undefined }> {
  const user = await lockUserShared(trx, userId, deps.dialect);
  await insertAccountIfAbsent(trx, userId, STARTING_CASH_CENTS, isoNow(deps.clock));
  return { account: await lockAccount(trx, userId, deps.dialect), user };
}

/** What the user's cash and shares must keep back. */
export interface Reservations {
  /** All cash held back: `restingCents` + `collateralCents`. */
  readonly cashCents: number;
  /** Cash for resting limit buys (qty × limit, to the cent). */
  readonly restingCents: number;
  /** Cash held against the open option positions' maximum loss (`collateralCents` of option-risk.ts). */
  readonly collateralCents: number;
  /** Option positions held, per compact OCC symbol (signed contracts). */
  readonly contracts: readonly ContractHolding[];
  /** Shares held back for resting limit sells. */
  readonly shares: Map<string, number>;
}

/**
 * What the user's cash and shares hold back: cash for resting limit buys, cash against the maximum loss of the open
 * option spreads (until they close), shares for resting limit sells.
 */
export async function reservations(db: DbOrTx, userId: string): Promise<Reservations> {
  const resting = await listUserRestingOrders(db, userId);
  const positions = await listPositions(db, userId);
  let restingCents = 0;
  const shares = new Map<string, number>();
  for (const order of resting) {
    if (order.side === 'buy') restingCents = safeCents(restingCents + amountCents(order.qty, order.limit_price ?? 0), 'reserved cash');
    else shares.set(order.symbol, (shares.get(order.symbol) ?? 0) + order.qty);
  }
  const contracts = positions.filter((p) => p.asset_class === 'option').map((p) => ({ symbol: p.symbol, qty: Number(p.qty) }));
  const collateral = safeCents(Number(collateralCents(contracts, CONTRACT_MULTIPLIER)), 'option collateral');
  return { cashCents: safeCents(restingCents + collateral, 'reserved cash'), restingCents, collateralCents: collateral, contracts, shares };
}

/** Shares of `symbol` the user holds. */
export async function sharesHeld(db: DbOrTx, userId: string, symbol: string): Promise<number> {
  return Number((await findPosition(db, userId, symbol))?.qty ?? 0);
}

/** Books a fill: every position it changes, the cash it pays or receives and the P&L it realizes. */
export async function bookFill(trx: DbOrTx, clock: Clock, account: AccountRow, bookings: readonly Booking[]): Promise<void> {
  const now = isoNow(clock);
  let cash = Number(account.cash_cents);
  let realized = Number(account.realized_pnl_cents);
  for (const booking of bookings) {
    const row = await findPosition(trx, account.user_id, booking.symbol);
    const held = row ? { qty: Number(row.qty), costCents: Number(row.cost_cents) } : FLAT;
    const { holding, realizedCents } = applyTrade(held, booking.delta, booking.paidCents);
    cash = safeCents(cash - booking.paidCents, 'cash');
    realized = safeCents(realized + realizedCents, 'realized P&L');
    safeCents(holding.costCents, 'a cost basis');
    safeCents(holding.qty, 'a position');
    if (holding.qty === 0) await deletePosition(trx, account.user_id, booking.symbol);
    else await upsertPosition(trx, { user_id: account.user_id, symbol: booking.symbol, asset_class: booking.assetClass, qty: holding.qty, cost_cents: holding.costCents, updated_at: now });
  }
  await updateAccount(trx, account.user_id, { cash_cents: cash, realized_pnl_cents: realized }, now);
}

/** `GET /api/trade-window/portfolio`: cash, reservations, positions at their latest close, P&L. */
export async function myPortfolio(deps: TradingDeps, caller: Caller): Promise<Portfolio> {
  const account = await findAccount(deps.db, caller.userId);
  const [positions, reserved] = await Promise.all([listPositions(deps.db, caller.userId), reservations(deps.db, caller.userId)]);
  const cashCents = account ? Number(account.cash_cents) : STARTING_CASH_CENTS;
  const today = newYorkDate(deps.clock.now());
  let equityCents = cashCents;
  const equities: Portfolio['positions'] = [];
  const options: Portfolio['options_positions'] = [];
  for (const position of positions) {
    const qty = Number(position.qty);
    const cost = Number(position.cost_cents);
    if (position.asset_class === 'option') {
      // No option quotes are stored: a leg counts at what it cost, until its settlement books what it was worth.
      equityCents += cost;
      const expiry = parseOccSymbol(position.symbol)!.expiry;
      options.push({ symbol: position.symbol, qty, avg_price: averagePrice(cost, qty, CONTRACT_MULTIPLIER), expiry, awaiting_settlement: hasExpired(expiry, today) });
      continue;
    }
    const close = await latestStoredClose(deps.db, position.symbol);
    const valueCents = close === null ? null : amountCents(qty, close);
    equityCents += valueCents ?? cost;
    equities.push({
      symbol: position.symbol,
      qty,
      avg_price: averagePrice(cost, qty),
      last_close: close,
      market_value: valueCents === null ? null : centsToAmount(valueCents),
      unrealized_pnl: valueCents === null ? null : centsToAmount(valueCents - cost),
    });
  }
  return {
    cash: centsToAmount(cashCents),
    reserved_cash: centsToAmount(reserved.cashCents),
    equity: centsToAmount(equityCents),
    positions: equities,
    options_positions: options,
    options_structures: await structuresView(deps.db, caller.userId, today),
    realized_pnl: centsToAmount(account ? Number(account.realized_pnl_cents) : 0),
    trade_cooldown_until: await cooldownUntil(deps, caller),
  };
}

/** The end of the recovery cooldown while it holds, so the Trade page can say so before an order is refused. */
async function cooldownUntil(deps: TradingDeps, caller: Caller): Promise<string | null> {
  return cooldownEnd(await findUserById(deps.db, caller.userId), deps.clock);
}

/**
 * `POST /api/trade-window/portfolio/reset`: back to 100,000 cash, no positions, no realized P&L; resting orders
 * are canceled (audited `order.cancel`); the order history is kept. While the recovery cooldown holds it is refused
 * like an order (403 `trade_cooldown`, nothing changed): fresh cash is trading too.
 */
export async function resetMyPortfolio(deps: TradingDeps, caller: Caller): Promise<{ status: 200; body: Portfolio } | { status: 403; body: OrderRefusal }> {
  const until = await deps.db.transaction().execute(async (trx) => {
    const { user } = await openAccount(trx, deps, caller.userId);
    const cooling = cooldownEnd(user, deps.clock);
    if (cooling !== null) return cooling;
    const now = isoNow(deps.clock);
    for (const order of await listUserRestingOrders(trx, caller.userId)) {
      if (await markCanceled(trx, caller.userId, order.id, now)) {
        await appendAudit(trx, deps.clock, { actorUserId: caller.userId, action: 'order.cancel', targetKind: 'order', targetId: order.id, context: { reason: 'portfolio_reset' } });
      }
    }
    await deletePositions(trx, caller.userId);
    await deleteStructures(trx, caller.userId);
    await updateAccount(trx, caller.userId, { cash_cents: STARTING_CASH_CENTS, realized_pnl_cents: 0 }, now);
    await appendAudit(trx, deps.clock, { actorUserId: caller.userId, action: 'portfolio.reset' });
    return null;
  });
  return until === null ? { status: 200, body: await myPortfolio(deps, caller) } : { status: 403, body: cooldownRefusal(until) };
}
