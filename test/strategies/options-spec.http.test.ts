import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { createStrategy, errorOf, libraryUser, strategyRows, type LibraryUser } from './library-kit.js';

const CONDOR = { short_delta: 0.16, wing_width: 10, dte: 45 };
const VERTICAL = { structure: 'call_debit', short_otm_pct: 0.05, width: 5, dte: 30 };

/** strategy type, options_spec or volatility_symbol sent, the field path the 400 names. */
const REFUSALS: [type: string, body: Record<string, unknown>, field: string][] = [
  ['equity_long', { options_spec: CONDOR }, 'body.options_spec'],
  ['custom', { options_spec: VERTICAL }, 'body.options_spec'],
  ['equity_short', { volatility_symbol: 'VIX' }, 'body.volatility_symbol'],
  ['iron_condor', { volatility_symbol: 'vix' }, 'body.volatility_symbol'],
  ['iron_condor', { volatility_symbol: 'VIX,VXN' }, 'body.volatility_symbol'],
  ['iron_condor', { options_spec: { ...CONDOR, structure: 'put_credit' } }, 'body.options_spec.structure'],
  ['iron_condor', { options_spec: { ...CONDOR, width: 5 } }, 'body.options_spec.width'],
  ['iron_condor', { options_spec: { ...CONDOR, leverage: 2 } }, 'body.options_spec'],
  ['iron_condor', { options_spec: { ...CONDOR, short_delta: 0.5 } }, 'body.options_spec.short_delta'],
  ['iron_condor', { options_spec: { ...CONDOR, short_otm_pct: 0.05 } }, 'body.options_spec'],
  ['iron_condor', { options_spec: { wing_width: 10, dte: 45 } }, 'body.options_spec'],
  ['iron_condor', { options_spec: { ...CONDOR, wing_width: 0 } }, 'body.options_spec.wing_width'],
  ['iron_condor', { options_spec: { ...CONDOR, wing_width: 1000.5 } }, 'body.options_spec.wing_width'],
  ['iron_condor', { options_spec: { ...CONDOR, dte: 0 } }, 'body.options_spec.dte'],
  ['iron_condor', { options_spec: { ...CONDOR, dte: 3651 } }, 'body.options_spec.dte'],
  ['iron_condor', { options_spec: { ...CONDOR, dte: 7.5 } }, 'body.options_spec.dte'],
  ['iron_condor', { options_spec: [CONDOR] }, 'body.options_spec'],
  ['vertical_spread', { options_spec: { ...VERTICAL, structure: 'iron_fly' } }, 'body.options_spec.structure'],
  ['vertical_spread', { options_spec: { short_otm_pct: 0.05, width: 5, dte: 30 } }, 'body.options_spec.structure'],
  ['vertical_spread', { options_spec: { ...VERTICAL, short_otm_pct: 1 } }, 'body.options_spec.short_otm_pct'],
  ['vertical_spread', { options_spec: { ...VERTICAL, short_otm_pct: 0 } }, 'body.options_spec.short_otm_pct'],
  ['vertical_spread', { options_spec: { ...VERTICAL, short_delta: 0.3 } }, 'body.options_spec'],
  ['vertical_spread', { options_spec: { ...VERTICAL, wing_width: 5 } }, 'body.options_spec.wing_width'],
  ['vertical_spread', { options_spec: { ...VERTICAL, width: -5 } }, 'body.options_spec.width'],
  ['vertical_spread', { options_spec: { ...VERTICAL, width: '5' } }, 'body.options_spec'],
];

describeEachDialect('Strategy options_spec and volatility_symbol over HTTP', (database) => {
  const db = () => database().handle.db;
  let app: App;
  let ann: LibraryUser;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock: new ManualClock('2026-03-03T10:00:00.000Z') });
    ann = await libraryUser(app, db());
  });
  afterAll(async () => app.close());

  it('stores an iron condor’s spec and volatility symbol, and answers them on get, list and update', async () => {
    const created = await createStrategy(ann, { name: 'SPX condor', strategy_type: 'iron_condor', options_spec: { dte: 45, wing_width: 10, short_delta: 0.16 }, volatility_symbol: 'VIX' });
    expect(created).toMatchObject({ options_spec: CONDOR, volatility_symbol: 'VIX' });
    // Stored in a fixed key order, whatever the client's.
    expect(Object.keys(created.options_spec as object)).toEqual(['short_delta', 'wing_width', 'dte']);
    expect((await ann.client.get(`/api/strategies/${created.id}`)).json()).toEqual(created);
    const listed = (await ann.client.get('/api/strategies?scope=library')).json() as { id: number }[];
    expect(listed.find((s) => s.id === created.id)).toEqual(created);

    const patched = await ann.client.request('PATCH', `/api/strategies/${created.id}`, { options_spec: { short_otm_pct: 0.1, wing_width: 5, dte: 30 }, volatility_symbol: null });
    expect(patched.json()).toMatchObject({ options_spec: { short_otm_pct: 0.1, wing_width: 5, dte: 30 }, volatility_symbol: null });
    const cleared = await ann.client.request('PATCH', `/api/strategies/${created.id}`, { options_spec: null });
    expect(cleared.json()).toMatchObject({ options_spec: null });
  });

  it('has none on a strategy that never named one, and a vertical spread takes its own shape', async () => {
    expect(await createStrategy(ann, { name: 'plain', strategy_type: 'iron_condor' })).toMatchObject({ options_spec: null, volatility_symbol: null });
    expect(await createStrategy(ann, { name: 'debit', strategy_type: 'vertical_spread', options_spec: VERTICAL })).toMatchObject({ options_spec: VERTICAL });
  });

  it.each(REFUSALS)('refuses on a %s strategy %j with 400 naming %s, on create and on update', async (type, body, field) => {
    const existing = await createStrategy(ann, { name: 'target', strategy_type: type });
    const before = await strategyRows(db());
    const created = await ann.client.post('/api/strategies', { name: 'x', strategy_type: type, ...body });
    expect(errorOf(created)).toMatchObject({ status: 400, error: 'validation_failed' });
    expect(errorOf(created).text).toContain(field);
    const patched = await ann.client.request('PATCH', `/api/strategies/${existing.id}`, body);
    expect(errorOf(patched)).toMatchObject({ status: 400, error: 'validation_failed' });
    expect(errorOf(patched).text).toContain(field);
    expect(await strategyRows(db())).toEqual(before);
  });

  it('refuses changing the type away from an options type while a spec or symbol is stored; clearing them lets it through', async () => {
    const condor = await createStrategy(ann, { name: 'c', strategy_type: 'iron_condor', options_spec: CONDOR, volatility_symbol: 'VIX' });
    const toEquity = await ann.client.request('PATCH', `/api/strategies/${condor.id}`, { strategy_type: 'equity_long' });
    expect(errorOf(toEquity)).toMatchObject({ status: 400, error: 'validation_failed' });
    expect(errorOf(toEquity).text).toContain('body.options_spec');
    // A condor's spec is no vertical's (no structure, wing_width instead of width).
    const toVertical = await ann.client.request('PATCH', `/api/strategies/${condor.id}`, { strategy_type: 'vertical_spread' });
    expect(errorOf(toVertical)).toMatchObject({ status: 400, error: 'validation_failed' });
    const both = await ann.client.request('PATCH', `/api/strategies/${condor.id}`, { strategy_type: 'vertical_spread', options_spec: VERTICAL });
    expect(both.json()).toMatchObject({ strategy_type: 'vertical_spread', options_spec: VERTICAL, volatility_symbol: 'VIX' });
    const cleared = await ann.client.request('PATCH', `/api/strategies/${condor.id}`, { strategy_type: 'custom', options_spec: null, volatility_symbol: null });
    expect(cleared.json()).toMatchObject({ strategy_type: 'custom', options_spec: null, volatility_symbol: null });
  });
});
