import { afterEach, expect, it, vi } from 'vitest';
import { STRATEGY_LIST_MAX_LIMIT } from '../../strategies/strategies.schema';
import { loadStrategyChoices, PICKER_PAGE } from './strategy-choices';
import type { ActiveStrategy } from './types';

/** A library of `count` active strategies behind `GET /api/strategies/active`, paged as the server pages it. */
function serveActiveStrategies(count: number): string[] {
  const library: ActiveStrategy[] = Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `s${i + 1}`, strategy_type: 'equity_long' }));
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (path: string) => {
    asked.push(path);
    const url = new URL(path, 'http://localhost');
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    return new Response(JSON.stringify(library.slice(offset, offset + limit)), { headers: { 'x-total-count': String(count) } });
  });
  return asked;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

it('offers every active strategy of a large library, a page of the largest size at a time', async () => {
  const asked = serveActiveStrategies(450);
  const { list, missing } = await loadStrategyChoices('444');
  expect(list.map((choice) => choice.id)).toEqual(Array.from({ length: 450 }, (_, i) => i + 1));
  expect(missing).toBeUndefined();
  expect(asked).toEqual([0, 200, 400].map((offset) => `/api/strategies/active?limit=200&offset=${offset}`));
  expect(PICKER_PAGE).toBe(STRATEGY_LIST_MAX_LIMIT);
});

it('asks once for a small library, and once for an empty one', async () => {
  expect(serveActiveStrategies(3)).toHaveLength(0);
  expect((await loadStrategyChoices('')).list).toHaveLength(3);
  const asked = serveActiveStrategies(0);
  expect((await loadStrategyChoices('')).list).toEqual([]);
  expect(asked).toHaveLength(1);
});
