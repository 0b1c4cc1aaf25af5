/**
 * Options positions as the structures they were traded as (docs/trading.md "Options structures"). The cash and the
 * contracts are booked per contract (portfolio.service.ts); this groups them for the trader: a filled options order
 * closes the open structures it mirrors (the same contracts and ratios, every side reversed), oldest first, and what
 * is left of it opens a structure of its own at its net price. So the structures' legs always add up to the
 * contracts held; once no contract of an underlying is held, its structures go.
 */
import { parseOccSymbol } from '../compliance/occ-symbol.js';
import { isoNow, type Clock } from '../platform/clock.js';
import type { DbOrTx } from '../platform/db/database.js';
import { newId } from '../platform/ids.js';
import { deleteStructuresById, insertStructure, listStructures, updateStructureLegs, updateStructureQty, type StructureRow } from './option-structures.repo.js';
import { hasExpired, settledStructure } from './option-settlement.js';
import { listPositions } from './portfolio.repo.js';
import { riskProfile, type StructureLeg } from './structure-payoff.js';
import type { Portfolio } from './trading.schema.js';

export interface FilledStructure {
  readonly underlying: string;
  readonly legs: readonly StructureLeg[];
  readonly qty: number;
  readonly netPrice: number;
}

/** After an options fill (inside its transaction): the structures it closes, the one it opens. */
export async function recordStructure(trx: DbOrTx, clock: Clock, userId: string, fill: FilledStructure): Promise<void> {
  const now = isoNow(clock);
  const open = (await listStructures(trx, userId)).filter((structure) => structure.underlying === fill.underlying);
  const held = (await listPositions(trx, userId)).some((p) => p.asset_class === 'option' && parseOccSymbol(p.symbol)?.root === fill.underlying);
  if (!held) return deleteStructuresById(trx, open.map((structure) => structure.id));
  const mirror = legsKey(fill.legs.map((leg) => ({ ...leg, side: leg.side === 'buy' ? 'sell' : 'buy' })));
  let left = fill.qty;
  for (const structure of open) {
    if (left === 0) break;
    if (legsKey(legsOf(structure)) !== mirror) continue;
    const units = Number(structure.qty);
    const taken = Math.min(left, units);
    left -= taken;
    if (taken === units) await deleteStructuresById(trx, [structure.id]);
    else await updateStructureQty(trx, structure.id, units - taken, now);
  }
  if (left === 0) return;
  const legs = JSON.stringify(fill.legs.map(({ symbol, side, ratio }) => ({ symbol, side, ratio })));
  await insertStructure(trx, { id: newId(), user_id: userId, underlying: fill.underlying, legs, qty: left, net_price: fill.netPrice, opened_at: now, updated_at: now });
}

/**
 * After the user's contracts of `underlying` expiring on `expiry` settled at `close` (inside the settlement's
 * transaction): a structure all of whose legs expired goes; one with later legs too (a calendar) keeps those, its
 * net price less what the settled legs paid back.
 */
export async function settleStructures(trx: DbOrTx, clock: Clock, userId: string, settled: { underlying: string; expiry: string; close: number }): Promise<void> {
  const now = isoNow(clock);
  for (const structure of await listStructures(trx, userId)) {
    if (structure.underlying !== settled.underlying) continue;
    const legs = legsOf(structure);
    if (!legs.some((leg) => parseOccSymbol(leg.symbol)?.expiry === settled.expiry)) continue;
    const rest = settledStructure(legs, Number(structure.net_price), settled.expiry, settled.close);
    if (rest.legs.length === 0) await deleteStructuresById(trx, [structure.id]);
    else await updateStructureLegs(trx, structure.id, { legs: JSON.stringify(rest.legs), net_price: rest.netPrice }, now);
  }
}

/**
 * The open structures as the portfolio shows them: each leg's right, strike and expiry, the structure's risk at its
 * price, and whether a leg has expired (`today`, New York) and awaits its settlement.
 */
export async function structuresView(db: DbOrTx, userId: string, today: string): Promise<Portfolio['options_structures']> {
  return (await listStructures(db, userId)).map((structure) => {
    const legs = legsOf(structure);
    const qty = Number(structure.qty);
    const netPrice = Number(structure.net_price);
    const shown = legs.map((leg) => {
      const option = parseOccSymbol(leg.symbol)!;
      return { ...leg, right: option.type, strike: option.strike, expiry: option.expiry };
    });
    return {
      id: structure.id,
      underlying: structure.underlying,
      legs: shown,
      qty,
      net_price: netPrice,
      opened_at: structure.opened_at,
      awaiting_settlement: shown.some((leg) => hasExpired(leg.expiry, today)),
      ...riskProfile(legs, qty, netPrice),
    };
  });
}

function legsOf(structure: StructureRow): StructureLeg[] {
  return JSON.parse(structure.legs) as StructureLeg[];
}

function legsKey(legs: readonly StructureLeg[]): string {
  return legs
    .map((leg) => `${leg.symbol}:${leg.side}:${leg.ratio}`)
    .sort()
    .join(',');
}
