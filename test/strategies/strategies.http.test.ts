import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { HOUR } from '../../src/platform/clock.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { createStrategy, errorOf, FULL_STRATEGY, libraryUser, strategyRows, type LibraryUser } from './library-kit.js';

describeEachDialect('Strategy Library CRUD over HTTP', (database) => {
  const clock = new ManualClock('2026-03-03T10:00:00.000Z');
  const db = () => database().handle.db;
  let app: App;
  let ann: LibraryUser;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    ann = await libraryUser(app, db());
  });
  afterAll(async () => app.close());

  it('creates a strategy with every field (201), reads it back, and audits the creation', async () => {
    const created = await createStrategy(ann, FULL_STRATEGY);
    expect(created).toEqual({
      id: expect.any(Number),
      ...FULL_STRATEGY,
      created_at: '2026-03-03T10:00:00.000Z',
      updated_at: '2026-03-03T10:00:00.000Z',
    });
    expect(Object.keys(created)).toEqual([
      'id', 'name', 'description', 'strategy_type', 'is_active', 'entry_symbol_allowlist', 'entry_max_position_size',
      'entry_allowed_sides', 'credit_min_amount', 'exit_profit_target_pct', 'exit_stop_loss_pct', 'exit_trailing_stop_pct', 'exit_max_dte',
      'options_spec', 'volatility_symbol', 'entry_rule', 'exit_rule', 'created_at', 'updated_at',
    ]);
    const read = await ann.client.get(`/api/strategies/${created.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created);
    const audit = await db().selectFrom('audit_entries').selectAll().where('action', '=', 'strategy.create').execute();
    expect(audit).toEqual([expect.objectContaining({ actor_user_id: ann.userId, target_kind: 'strategy', target_id: String(created.id) })]);
  });

  it('creates with only the required fields: the rest default (active, empty description, no rules)', async () => {
    const created = await createStrategy(ann, { name: '  Buy the dip  ', strategy_type: 'equity_long' });
    expect(created).toMatchObject({
      name: 'Buy the dip',
      description: '',
      is_active: true,
      entry_symbol_allowlist: null,
      entry_max_position_size: null,
      entry_allowed_sides: null,
      credit_min_amount: null,
      exit_profit_target_pct: null,
      exit_stop_loss_pct: null,
      exit_max_dte: null,
      entry_rule: null,
      exit_rule: null,
    });
  });

  it('normalizes the allowlist (spaces around commas removed) and stores blank rules and allowlists as null', async () => {
    const created = await createStrategy(ann, { name: 'Blanks', strategy_type: 'custom', entry_symbol_allowlist: ' SPY , BRK.B,QQQ ', entry_rule: '  ', exit_rule: '' });
    expect(created).toMatchObject({ entry_symbol_allowlist: 'SPY,BRK.B,QQQ', entry_rule: null, exit_rule: null });
    const blank = await createStrategy(ann, { name: 'Blank list', strategy_type: 'custom', entry_symbol_allowlist: ' ' });
    expect(blank.entry_symbol_allowlist).toBeNull();
  });

  describe('listing', () => {
    let bob: LibraryUser;
    let ids: number[];
    beforeAll(async () => {
      bob = await libraryUser(app, db());
      ids = [];
      for (const [name, isActive] of [['b1', true], ['b2', false], ['b3', true], ['b4', false], ['b5', true]] as const) {
        ids.push((await createStrategy(bob, { name, strategy_type: 'equity_long', is_active: isActive })).id);
      }
    });

    it('lists the caller’s strategies oldest first, with the total in X-Total-Count', async () => {
      const response = await bob.client.get('/api/strategies');
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-total-count']).toBe('5');
      expect(response.json().map((s: { id: number }) => s.id)).toEqual(ids);
      expect(response.json()[0]).toMatchObject({ name: 'b1', strategy_type: 'equity_long', is_active: true, created_at: expect.any(String) });
    });

    it('pages with limit and offset, and filters with active_only=1 (the total counts the filter)', async () => {
      const page = await bob.client.get('/api/strategies?limit=2&offset=1');
      expect(page.json().map((s: { name: string }) => s.name)).toEqual(['b2', 'b3']);
      expect(page.headers['x-total-count']).toBe('5');
      const active = await bob.client.get('/api/strategies?active_only=1');
      expect(active.json().map((s: { name: string }) => s.name)).toEqual(['b1', 'b3', 'b5']);
      expect(active.headers['x-total-count']).toBe('3');
      const activePage = await bob.client.get('/api/strategies?active_only=1&limit=1&offset=2');
      expect(activePage.json().map((s: { name: string }) => s.name)).toEqual(['b5']);
      expect(activePage.headers['x-total-count']).toBe('3');
      const all = await bob.client.get('/api/strategies?active_only=0');
      expect(all.headers['x-total-count']).toBe('5');
      const past = await bob.client.get('/api/strategies?offset=10');
      expect(past.json()).toEqual([]);
      expect(past.headers['x-total-count']).toBe('5');
    });

    it('answers the active picker with id, name and type of active strategies only', async () => {
      const response = await bob.client.get('/api/strategies/active');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        { id: ids[0], name: 'b1', strategy_type: 'equity_long' },
        { id: ids[2], name: 'b3', strategy_type: 'equity_long' },
        { id: ids[4], name: 'b5', strategy_type: 'equity_long' },
      ]);
    });

    it('pages the active picker like every list: limit default 50, max 200, offset, the total in X-Total-Count', async () => {
      const firstPage = await bob.client.get('/api/strategies/active?limit=2');
      expect(firstPage.json().map((s: { name: string }) => s.name)).toEqual(['b1', 'b3']);
      expect(firstPage.headers['x-total-count']).toBe('3');
      const lastPage = await bob.client.get('/api/strategies/active?limit=2&offset=2');
      expect(lastPage.json()).toEqual([{ id: ids[4], name: 'b5', strategy_type: 'equity_long' }]);
      expect(lastPage.headers['x-total-count']).toBe('3');
      expect((await bob.client.get('/api/strategies/active')).headers['x-total-count']).toBe('3');
      for (const query of ['limit=0', 'limit=201', 'offset=-1', 'active_only=1']) {
        expect(errorOf(await bob.client.get(`/api/strategies/active?${query}`)), query).toMatchObject({ status: 400, error: 'validation_failed' });
      }
    });

    it.each([
      ['limit=0', 'querystring.limit'],
      ['limit=201', 'querystring.limit'],
      ['limit=abc', 'querystring.limit'],
      ['offset=-1', 'querystring.offset'],
      ['active_only=yes', 'querystring.active_only'],
    ])('refuses the query %s with a 400 naming the parameter', async (query, field) => {
      const response = await bob.client.get(`/api/strategies?${query}`);
      expect(errorOf(response)).toMatchObject({ status: 400, error: 'validation_failed' });
      expect(errorOf(response).text).toContain(field);
    });

    it('with ?scope=library answers the library (as without it), and 401 rather than the catalogue without a session', async () => {
      const library = await bob.client.get('/api/strategies?scope=library&limit=2');
      expect(library.json()).toEqual((await bob.client.get('/api/strategies?limit=2')).json());
      expect(library.headers['x-total-count']).toBe('5');
      const anonymous = await app.inject({ url: '/api/strategies?scope=library&limit=abc' });
      expect(errorOf(anonymous)).toMatchObject({ status: 401, error: 'unauthenticated' });
      expect(errorOf(await bob.client.get('/api/strategies?scope=everything'))).toMatchObject({ status: 400, error: 'validation_failed' });
    });

    it('without a session, still answers the template catalogue', async () => {
      const anonymous = await app.inject({ url: '/api/strategies' });
      expect(anonymous.statusCode).toBe(200);
      expect(anonymous.headers['x-total-count']).toBeUndefined();
      expect(anonymous.json()).toEqual((await app.inject({ url: '/api/templates' })).json());
    });
  });

  it('patches only the fields sent, clears a rule field with null, moves updated_at, and audits', async () => {
    const created = await createStrategy(ann, FULL_STRATEGY);
    clock.advance(HOUR);
    const response = await ann.client.request('PATCH', `/api/strategies/${created.id}`, {
      name: 'Renamed',
      is_active: false,
      exit_max_dte: null,
      entry_rule: null,
      entry_symbol_allowlist: 'IWM , SPY',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      ...created,
      name: 'Renamed',
      is_active: false,
      exit_max_dte: null,
      entry_rule: null,
      entry_symbol_allowlist: 'IWM,SPY',
      updated_at: '2026-03-03T11:00:00.000Z',
    });
    expect((await ann.client.get(`/api/strategies/${created.id}`)).json()).toEqual(response.json());
    const description = await ann.client.request('PATCH', `/api/strategies/${created.id}`, { description: null });
    expect(description.json().description).toBe('');
    const audit = await db().selectFrom('audit_entries').select(['context']).where('action', '=', 'strategy.update').where('target_id', '=', String(created.id)).execute();
    expect(audit).toHaveLength(2);
    expect(JSON.parse(audit[0]!.context!)).toEqual({ fields: ['entry_rule', 'entry_symbol_allowlist', 'exit_max_dte', 'is_active', 'name'] });
  });

  it('deletes (204), after which the strategy is a 404 everywhere', async () => {
    const created = await createStrategy(ann, { name: 'Doomed', strategy_type: 'custom' });
    const deleted = await ann.client.request('DELETE', `/api/strategies/${created.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    for (const response of [
      await ann.client.get(`/api/strategies/${created.id}`),
      await ann.client.request('PATCH', `/api/strategies/${created.id}`, { name: 'Back' }),
      await ann.client.request('DELETE', `/api/strategies/${created.id}`),
    ]) {
      expect(errorOf(response)).toMatchObject({ status: 404, error: 'not_found' });
    }
    expect(await db().selectFrom('strategies').select('id').where('id', '=', created.id).execute()).toEqual([]);
    expect(await db().selectFrom('audit_entries').select('id').where('action', '=', 'strategy.delete').where('target_id', '=', String(created.id)).execute()).toHaveLength(1);
  });

  it.each([
    ['a non-numeric id', 'abc'],
    ['a signed id', '-1'],
    ['an id with an exponent', '1e3'],
    ['a zero id', '0'],
    ['an id above 2^53 − 1', '9007199254740992'],
    ['an id of 17 digits', '12345678901234567'],
  ])('refuses %s in the path with a 400', async (_case, id) => {
    for (const response of [
      await ann.client.get(`/api/strategies/${id}`),
      await ann.client.request('PATCH', `/api/strategies/${id}`, { name: 'x' }),
      await ann.client.request('DELETE', `/api/strategies/${id}`),
    ]) {
      expect(errorOf(response)).toMatchObject({ status: 400, error: 'validation_failed' });
      expect(errorOf(response).text).toContain('params.id');
    }
  });

  it('answers 404 for an id no one has (the largest safe integer)', async () => {
    expect(errorOf(await ann.client.get('/api/strategies/9007199254740991'))).toMatchObject({ status: 404, error: 'not_found' });
  });

  it('needs a session for every library route (401), and checks Origin first on writes (403 origin_mismatch)', async () => {
    const created = await createStrategy(ann, { name: 'Mine', strategy_type: 'custom' });
    const anonymous = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      app.inject({ method, url, headers: method === 'GET' ? {} : { origin: 'http://localhost:3000' }, ...(payload ? { payload } : {}) });
    for (const response of [
      await anonymous('GET', '/api/strategies/active'),
      await anonymous('GET', `/api/strategies/${created.id}`),
      await anonymous('POST', '/api/strategies', { name: 'x', strategy_type: 'custom' }),
      await anonymous('POST', '/api/strategies', { bogus: true }),
      await anonymous('PATCH', `/api/strategies/${created.id}`, { name: 'x' }),
      await anonymous('DELETE', `/api/strategies/${created.id}`),
    ]) {
      expect(errorOf(response)).toMatchObject({ status: 401, error: 'unauthenticated' });
    }
    const before = await strategyRows(db());
    for (const response of [
      await ann.client.post('/api/strategies', { name: 'x', strategy_type: 'custom' }, { origin: '' }),
      await ann.client.request('PATCH', `/api/strategies/${created.id}`, { name: 'x' }, { origin: 'https://evil.example' }),
      await ann.client.request('DELETE', `/api/strategies/${created.id}`, undefined, { origin: '' }),
    ]) {
      expect(errorOf(response)).toMatchObject({ status: 403, error: 'origin_mismatch' });
    }
    expect(await strategyRows(db())).toEqual(before);
  });

  it('with AUTH_V1=off, GET /api/strategies is the template catalogue again; ?scope=library is the local operator’s library', async () => {
    const off = await buildTestApp(database().handle, { clock, env: { AUTH_V1: 'off' } });
    try {
      const write = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
        off.inject({ method, url, headers: { origin: 'http://localhost:3000' }, ...(payload ? { payload } : {}) });
      // The prior single-operator tool's answer: the catalogue, as /api/templates serves it.
      const catalogue = await off.inject({ url: '/api/strategies' });
      expect(catalogue.statusCode).toBe(200);
      expect(catalogue.json()).toEqual((await off.inject({ url: '/api/templates' })).json());
      expect(catalogue.headers['x-total-count']).toBeUndefined();

      // The library stays usable: create, list, change, delete, all for the operator.
      const created = await write('POST', '/api/strategies', { name: 'Operator’s', strategy_type: 'equity_long' });
      expect(created.statusCode).toBe(201);
      const library = await off.inject({ url: '/api/strategies?scope=library' });
      expect(library.json()).toEqual([created.json()]);
      expect(library.headers['x-total-count']).toBe('1');
      expect((await off.inject({ url: '/api/strategies' })).json()).toEqual(catalogue.json());
      expect((await write('PATCH', `/api/strategies/${created.json().id}`, { is_active: false })).json()).toMatchObject({ is_active: false });
      expect((await off.inject({ url: '/api/strategies?scope=library&active_only=1' })).json()).toEqual([]);
      // Not Ann's: the operator is a user of its own.
      expect((await off.inject({ url: `/api/strategies/${(await ann.client.get('/api/strategies')).json()[0].id}` })).statusCode).toBe(404);
      expect((await write('DELETE', `/api/strategies/${created.json().id}`)).statusCode).toBe(204);
      expect((await off.inject({ url: '/api/strategies?scope=library' })).json()).toEqual([]);
    } finally {
      await off.close();
    }
  });

  it('describes the library routes in OpenAPI, GET /api/strategies as a union of library and catalogue', async () => {
    const spec = (await app.inject({ url: '/openapi.json' })).json();
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/api/strategies', '/api/strategies/active', '/api/strategies/{id}']));
    const list = spec.paths['/api/strategies'].get.responses['200'].content['application/json'].schema;
    expect(list.anyOf).toHaveLength(2);
    expect(spec.paths['/api/strategies'].get.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'scope', in: 'query' })]));
    // The session is optional there (the catalogue without one), required by the library routes.
    expect(spec.paths['/api/strategies'].get.security).toEqual([{ session: [] }, {}]);
    expect(spec.paths['/api/strategies/{id}'].get.security).toEqual([{ session: [] }]);
    expect(Object.keys(spec.paths['/api/strategies/{id}'])).toEqual(expect.arrayContaining(['get', 'patch', 'delete']));
  });
});
