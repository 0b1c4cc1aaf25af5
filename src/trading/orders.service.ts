import type { AuthContext } from '../auth/sessions.service.js';
import { evaluateTrade } from '../compliance/compliance.service.js';
import { money, newYorkDate } from '../compliance/compliance-rules.js';
import { calendarDaysBetween } from '../engine/dates.js';
import { latestStoredBar, recentCloses } from '../market/bars.repo.js';
import type { MarketData } from '../market/market-data.service.js';
import { appendAudit } from '../platform/audit/audit.js';
import { isoNow } from '../platform/clock.js';
import type { DbOrTx } from '../platform/db/database.js';
import { Conflict, unauthenticated, Unprocessable } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { findStrategy } from '../strategies/strategies.repo.js';
import { loadOwnStrategy } from '../strategies/strategies.service.js';
import { CONTRACT_MULTIPLIER } from '../strategies/strategy-policy.js';
import { cooldownRefusal, cooldownRefusalOf, cooldownEnd, TRADE_COOLDOWN } from './cooldown.js';
import { fillPriceOf, judgedRequest, restsAfter, type FillPrice } from './fill-price.js';
import { immediateFillPrice, splitOverLegs } from './fills.js';
import { amountCents, centsToAmount, MoneyOutOfRange } from './money.js';
import { collateralCents, holdingsAfter, uncoveredShort } from './option-risk.js';
import { CLOSES_FOR_MODEL, isMarketable, modeledQuote, noModelMessage, notMarketableMessage } from './option-quote.js';
import { recordStructure } from './option-structures.service.js';
import { equityDraft, optionsDraft, type OrderDraft } from './order-drafts.js';
import { orderView, refusalOf } from './order-view.js';
import { findOrderByClientId, insertOrder, type OrderRow } from './orders.repo.js';
import { bookFill, openAccount, reservations, sharesHeld, type Reservations, type TradingDeps } from './portfolio.service.js';
import type { AccountRow } from './portfolio.repo.js';
import { priceCheck } from './structure-payoff.js';
import type { Order, OrderRefusal, PlaceOptionsOrderBody, PlaceOrderBody } from './trading.schema.js';

type Caller = Pick<AuthContext, 'userId'>;

/** A placement's answer: 201 a new order, 200 a retried one, 403 the cooldown, 422 a refusal (stored as rejected). */
export interface OrderAnswer {
  readonly status: 200 | 201 | 403 | 422;
  readonly body: Order | OrderRefusal;
}

/** The trade window's dependencies when it places orders: the market data that prices an equity order. */
export interface PlacementDeps extends TradingDeps {
  readonly prices: Pick<MarketData, 'priceNow'>;
}

/**
 * `POST /api/trade-window/orders`. The price is asked before the transaction (never a provider call while the
 * account is locked), so a provider that cannot be asked answers its error (502/503/504, nothing stored) before the
 * cooldown and the rules are looked at.
 */
export async function placeEquityOrder(deps: PlacementDeps, caller: Caller, body: PlaceOrderBody): Promise<OrderAnswer> {
  const draft = equityDraft(body);
  return place(deps, caller, draft, await fillPriceOf(deps, draft.symbol));
}

/** `POST /api/trade-window/options-orders`. */
export async function placeOptionsOrder(deps: TradingDeps, caller: Caller, body: PlaceOptionsOrderBody): Promise<OrderAnswer> {
  return place(deps, caller, optionsDraft(body), null);
}

/**
 * DESIGN's order of refusals after validation (the drafts), in one transaction holding the user's row and the
 * account's lock (`openAccount`): an account erased since the session was checked is 401 (nothing stored: the
 * erasure has canceled what rested and nothing may follow it); a retry by `client_order_id` (the first answer
 * again, 409 for another body; a replay places nothing, so the cooldown does not refuse it), then the recovery
 * cooldown (403), the strategy (404 when not the caller's), the compliance rules when enforcement is on, the price,
 * the funds or shares. A refusal from the cooldown on is stored as a rejected order and answered 403 or 422. An
 * amount beyond the exact integers of cents is 422 `amount_out_of_range` (nothing stored), never a 500.
 */
async function place(deps: TradingDeps, caller: Caller, draft: OrderDraft, priced: FillPrice | null): Promise<OrderAnswer> {
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const { account, user } = await openAccount(trx, deps, caller.userId);
      if (!user || user.deleted_at !== null) throw unauthenticated();
      if (draft.clientOrderId !== null) {
        const first = await findOrderByClientId(trx, caller.userId, draft.clientOrderId);
        if (first) return replay(first, draft);
      }
      const placing = new Placing(deps, trx, caller, draft, account, priced);
      let verdict = deps.config.flagTradeWindowComplianceEnforcement ? { checked: null, compliant: null } : draft.clientFlags;
      const until = cooldownEnd(user, deps.clock);
      if (until !== null) return placing.refuseForCooldown(verdict, until);
      if (draft.strategyId !== null) {
        if (deps.config.flagTradeWindowComplianceEnforcement) {
          const result = await evaluateTrade({ db: trx, clock: deps.clock }, caller.userId, judgedRequest(draft, priced));
          verdict = { checked: true, compliant: result.compliant };
          if (!result.compliant) {
            const count = result.violations.length === 1 ? 'a rule' : `${result.violations.length} rules`;
            return placing.reject(verdict, 'compliance_violation', `The order breaks ${count} of strategy "${result.strategy.name}".`, result.violations);
          }
        } else {
          await loadOwnStrategy(trx, caller, draft.strategyId);
        }
      }
      return draft.kind === 'equity' ? placing.equity(verdict) : placing.options(verdict);
    });
  } catch (error) {
    if (error instanceof MoneyOutOfRange) {
      throw new Unprocessable('amount_out_of_range', 'The order would take an amount of cash, a cost or a P&L beyond what is kept exact to the cent (2^53 cents); nothing was placed.');
    }
    throw error;
  }
}

function replay(first: OrderRow, draft: OrderDraft): OrderAnswer {
  if (first.request_hash !== draft.requestHash) {
    throw new Conflict('idempotency_conflict', `client_order_id "${draft.clientOrderId}" was already used for a different order (${first.id}).`);
  }
  return first.status === 'rejected' ? refusalAnswer(first) : { status: 200, body: orderView(first) };
}

/** A rejected order's answer: 403 with `until` for the cooldown, else 422. */
function refusalAnswer(row: OrderRow): OrderAnswer {
  return row.reject_reason === TRADE_COOLDOWN ? { status: 403, body: cooldownRefusalOf(refusalOf(row)) } : { status: 422, body: refusalOf(row) };
}

type Verdict = OrderDraft['clientFlags'];

/** One order being placed inside the account's transaction. */
class Placing {
  constructor(
    private readonly deps: TradingDeps,
    private readonly trx: DbOrTx,
    private readonly caller: Caller,
    private readonly draft: OrderDraft,
    private readonly account: AccountRow,
    private readonly priced: FillPrice | null,
  ) {}

  async equity(verdict: Verdict): Promise<OrderAnswer> {
    const { draft, trx } = this;
    const price = this.priced?.price;
    if (!price) return this.reject(verdict, 'no_price', this.priced?.missing ?? `There are no stored bars of ${draft.symbol} to fill at: import or fetch its bars first.`);
    const fillPrice = immediateFillPrice(draft.side, draft.orderType, draft.limitPrice, price.price);
    const reserved = await reservations(trx, this.caller.userId);
    if (draft.side === 'buy') {
      const needed = amountCents(draft.qty, fillPrice ?? draft.limitPrice!);
      const refusal = this.fundsRefusal(verdict, needed, reserved);
      if (refusal) return refusal;
    } else {
      const free = (await sharesHeld(trx, this.caller.userId, draft.symbol)) - (reserved.shares.get(draft.symbol) ?? 0);
      if (draft.qty > free) {
        return this.reject(verdict, 'insufficient_position', `Selling ${draft.qty} ${draft.symbol} needs ${draft.qty} shares; you hold ${free} not held back by resting sells (no shorting).`);
      }
    }
    if (fillPrice === null) return this.store(verdict, { status: 'accepted', rests_after: await restsAfter(trx, draft.symbol, price) });
    const paid = amountCents(draft.qty, fillPrice) * (draft.side === 'buy' ? 1 : -1);
    const delta = draft.side === 'buy' ? draft.qty : -draft.qty;
    return this.store(verdict, { status: 'filled', fill_price: fillPrice, fill_source: price.source, price_at: price.at }, [
      { symbol: draft.symbol, assetClass: 'equity', delta, paidCents: paid },
    ]);
  }

  async options(verdict: Verdict): Promise<OrderAnswer> {
    const { draft } = this;
    const today = newYorkDate(this.deps.clock.now());
    const expired = draft.legs.find((leg) => calendarDaysBetween(today, leg.expiry) < 0);
    if (expired) return this.reject(verdict, 'option_expired', `Leg ${expired.symbol} expired on ${expired.expiry}; an expired contract cannot be traded.`);
    const closes = await recentCloses(this.trx, draft.symbol, CLOSES_FOR_MODEL);
    const price = priceCheck(draft.legs, draft.limitPrice!, closes.at(-1) ?? null);
    if (!price.ok) return this.reject(verdict, price.code, price.message);
    const changes = draft.legs.map((leg) => ({ symbol: leg.symbol, qty: (leg.side === 'buy' ? 1 : -1) * draft.qty * leg.ratio }));
    const reserved = await reservations(this.trx, this.caller.userId);
    const after = holdingsAfter(reserved.contracts, changes);
    // No naked options: every contract sold closes a held one or is covered by one bought (a vertical spread).
    const uncovered = uncoveredShort(after, draft.legs.filter((leg) => leg.side === 'sell').map((leg) => leg.symbol));
    if (uncovered) {
      const what = `${uncovered.root} ${uncovered.type}s of ${uncovered.expiry}`;
      return this.reject(
        verdict,
        'insufficient_position',
        `After the order you would be short ${uncovered.sold} ${what} against ${uncovered.bought} long: a sold contract must close one you hold or be covered by one bought of the same underlying, expiry and type (no naked options, no margin).`,
      );
    }
    // Filled at the model's price: the net price is a limit (docs/trading.md "Options prices, structures and risk").
    const quote = modeledQuote(draft.legs, { closes, today });
    if (!quote) return this.reject(verdict, 'no_price', noModelMessage(draft.symbol, closes.length));
    if (!isMarketable(quote, draft.limitPrice!)) return this.reject(verdict, 'limit_not_marketable', notMarketableMessage(quote, draft.limitPrice!));
    const net = amountCents(draft.qty, quote.ask, CONTRACT_MULTIPLIER);
    // The debit, plus what the spreads' maximum loss holds back after the order less what it holds now (a credit
    // received stays held until the spread closes).
    const collateralAfter = collateralCents(after, CONTRACT_MULTIPLIER);
    const needed = BigInt(net) + collateralAfter - BigInt(reserved.collateralCents);
    const available = BigInt(Number(this.account.cash_cents) - reserved.cashCents);
    if (needed > 0n && needed > available) {
      const held = collateralAfter > 0n ? ` (the debit or credit plus ${money(Number(collateralAfter) / 100)} held against the spreads' maximum loss while they are open)` : '';
      return this.reject(
        verdict,
        'insufficient_funds',
        `The order needs ${money(Number(needed) / 100)}${held}; available cash is ${money(centsToAmount(Number(available)))}. No margin.`,
      );
    }
    const shares = splitOverLegs(net, draft.legs.map((leg) => leg.ratio));
    const bookings = draft.legs.map((leg, index) => ({
      symbol: leg.symbol,
      assetClass: 'option' as const,
      delta: (leg.side === 'buy' ? 1 : -1) * draft.qty * leg.ratio,
      paidCents: shares[index]!,
    }));
    const modeledOn = (await latestStoredBar(this.trx, draft.symbol))?.date ?? null;
    const answer = await this.store(verdict, { status: 'filled', fill_price: quote.ask, fill_source: 'modeled_price', price_at: modeledOn }, bookings);
    await recordStructure(this.trx, this.deps.clock, this.caller.userId, { underlying: draft.symbol, legs: draft.legs, qty: draft.qty, netPrice: quote.ask });
    return answer;
  }

  private fundsRefusal(verdict: Verdict, neededCents: number, reserved: Reservations): Promise<OrderAnswer> | null {
    const available = Number(this.account.cash_cents) - reserved.cashCents;
    if (neededCents <= available) return null;
    const holds = [
      ...(reserved.restingCents > 0 ? [`${money(centsToAmount(reserved.restingCents))} is held for resting buys`] : []),
      ...(reserved.collateralCents > 0 ? [`${money(centsToAmount(reserved.collateralCents))} against open option spreads`] : []),
    ];
    const held = holds.length > 0 ? ` (${holds.join(', ')})` : '';
    return this.reject(
      verdict,
      'insufficient_funds',
      `The order needs ${money(centsToAmount(neededCents))}; available cash is ${money(centsToAmount(available))}${held}. No margin.`,
    );
  }

  /** Refused by the recovery cooldown, before the strategy is looked at: one that is not the caller's is not kept. */
  async refuseForCooldown(verdict: Verdict, until: string): Promise<OrderAnswer> {
    const { strategyId } = this.draft;
    const own = strategyId !== null && (await findStrategy(this.trx, this.caller.userId, strategyId)) !== undefined;
    return this.reject(verdict, TRADE_COOLDOWN, cooldownRefusal(until).message, undefined, own ? {} : { strategy_id: null });
  }

  async reject(verdict: Verdict, code: string, message: string, violations?: readonly { rule: string; message: string }[], stored: Partial<OrderRow> = {}): Promise<OrderAnswer> {
    const row = await this.insert(verdict, { status: 'rejected', reject_reason: code, reject_message: message, violations: violations ? JSON.stringify(violations) : null, ...stored });
    await this.audit('order.reject', row, { reason: code, ...(violations ? { rules: violations.map((v) => v.rule) } : {}) });
    return refusalAnswer(row);
  }

  private async store(verdict: Verdict, outcome: Partial<OrderRow> & Pick<OrderRow, 'status'>, bookings: Parameters<typeof bookFill>[3] = []): Promise<OrderAnswer> {
    const row = await this.insert(verdict, outcome.status === 'filled' ? { ...outcome, filled_at: isoNow(this.deps.clock) } : outcome);
    if (row.status === 'filled') {
      await bookFill(this.trx, this.deps.clock, this.account, bookings);
      await this.audit('order.fill', row, { fill_price: row.fill_price, fill_source: row.fill_source, price_at: row.price_at });
    }
    return { status: 201, body: orderView(row) };
  }

  private async insert(verdict: Verdict, outcome: Partial<OrderRow> & Pick<OrderRow, 'status'>): Promise<OrderRow> {
    const { draft } = this;
    const now = isoNow(this.deps.clock);
    const row = await insertOrder(this.trx, {
      id: newId(),
      user_id: this.caller.userId,
      strategy_id: draft.strategyId,
      asset_class: draft.kind === 'options' ? 'option' : 'equity',
      symbol: draft.symbol,
      side: draft.side,
      qty: draft.qty,
      order_type: draft.orderType,
      limit_price: draft.limitPrice,
      legs: draft.kind === 'options' ? JSON.stringify(draft.legs.map((leg) => ({ symbol: leg.symbol, side: leg.side, ratio: leg.ratio }))) : null,
      compliance_checked: verdict.checked,
      compliance_compliant: verdict.compliant,
      client_order_id: draft.clientOrderId,
      request_hash: draft.requestHash,
      created_at: now,
      updated_at: now,
      ...outcome,
    });
    await this.audit('order.submit', row, { kind: draft.kind, symbol: draft.symbol, side: draft.side, qty: draft.qty, strategy_id: draft.strategyId });
    return row;
  }

  private async audit(action: string, row: OrderRow, context: Record<string, unknown>): Promise<void> {
    await appendAudit(this.trx, this.deps.clock, { actorUserId: this.caller.userId, action, targetKind: 'order', targetId: row.id, context });
  }
}
