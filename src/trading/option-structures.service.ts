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
import { deleteStructuresById, insertStructure, listStructures, updateStructureQty, type StructureRow } from './option-structures.repo.js';
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

/** The open structures as the portfolio shows them: each leg's right, strike and expiry, and the structure's risk at its price. */
export async function structuresView(db: DbOrTx, userId: string): Promise<Portfolio['options_structures']> {
  return (await listStructures(db, userId)).map((structure) => {
    const legs = legsOf(structure);
    const qty = Number(structure.qty);
    const netPrice = Number(structure.net_price);
    return {
      id: structure.id,
      underlying: structure.underlying,
      legs: legs.map((leg) => {
        const option = parseOccSymbol(leg.symbol)!;
        return { ...leg, right: option.type, strike: option.strike, expiry: option.expiry };
      }),
      qty,
      net_price: netPrice,
      opened_at: structure.opened_at,
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
