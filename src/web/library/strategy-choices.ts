import { api, ApiError } from '../api';
import type { ActiveStrategy, StrategyView } from './types';

/** A picker entry: the active strategies, plus the one the address names if it is inactive (a check then says so). */
export type StrategyChoice = ActiveStrategy & { readonly inactive?: boolean };

/**
 * The strategies a picker offers (`GET /api/strategies/active`), plus `wanted` (an id from the address) when it is
 * one of the library's inactive strategies; `missing` says so when the library has no such strategy (deleted, or
 * not this person's). Only a 404 means "not in your library"; any other failure is thrown, a load problem.
 * The trade check and the Trade page share it.
 */
export async function loadStrategyChoices(wanted: string): Promise<{ list: StrategyChoice[]; missing: string | undefined }> {
  const active = await allActiveStrategies();
  let list: StrategyChoice[] = active;
  if (/^[1-9]\d*$/.test(wanted) && !active.some((choice) => String(choice.id) === wanted)) {
    const named = await api.get<StrategyView>(`/api/strategies/${wanted}`).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    });
    if (named) list = [...active, { id: named.id, name: named.name, strategy_type: named.strategy_type, inactive: true }];
  }
  const found = wanted === '' || list.some((choice) => String(choice.id) === wanted);
  return { list, missing: found ? undefined : `Your library has no strategy ${wanted}: it was deleted, or the address is wrong.` };
}

/** The server's largest page (`limit` at most 200). */
export const PICKER_PAGE = 200;

/** Every active strategy, a page at a time: a library holds at most 1,000 strategies, so at most five requests. */
async function allActiveStrategies(): Promise<ActiveStrategy[]> {
  const all: ActiveStrategy[] = [];
  for (;;) {
    const { data, headers } = await api.getWithHeaders<ActiveStrategy[]>(`/api/strategies/active?limit=${PICKER_PAGE}&offset=${all.length}`);
    all.push(...data);
    if (data.length < PICKER_PAGE || all.length >= Number(headers.get('x-total-count') ?? all.length)) return all;
  }
}
