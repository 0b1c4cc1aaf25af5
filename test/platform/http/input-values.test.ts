import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { Type } from 'typebox';
import type { App } from '../../../src/app.js';
import { buildTestApp, TEST_ORIGIN } from '../../helpers/app.js';
import { describeEachDialect } from '../../helpers/dialects.js';
import { FULL_STRATEGY, libraryUser, strategyRows, type LibraryUser } from '../../strategies/library-kit.js';

/**
 * Values JSON can carry but no field should hold: numbers beyond the double range (`1e309` parses as Infinity),
 * bytes that are not UTF-8 and lone UTF-16 surrogates (each database would store a replacement character, each
 * its own way). Every one is a 400 before any route runs, and nothing is stored, on both dialects.
 */
describeEachDialect('values no field accepts', (db) => {
  let app: App;
  let user: LibraryUser;

  beforeAll(async () => {
    app = await buildTestApp(db().handle);
    const Symbol = Type.Object(
      { symbol: Type.String({ pattern: '^[A-Z]{1,5}$' }), name: Type.String({ minLength: 1 }), weight: Type.Optional(Type.Number()) },
      { additionalProperties: false },
    );
    app.post('/fixture/symbols', { schema: { body: Symbol } }, async (request, reply) => {
      const { symbol, name } = request.body as { symbol: string; name: string };
      await app.platform.db.insertInto('symbols').values({ symbol, name, created_at: new Date().toISOString() }).execute();
      return reply.status(201).send({ symbol, name });
    });
    user = await libraryUser(app, db().handle.db);
  });

  afterAll(async () => {
    await app.close();
  });

  beforeEach(async () => {
    await app.platform.db.deleteFrom('symbols').execute();
  });

  const postRaw = (payload: string | Buffer) =>
    app.inject({ method: 'POST', url: '/fixture/symbols', payload, headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' } });

  const storedNames = async () => (await app.platform.db.selectFrom('symbols').select('name').execute()).map((row) => row.name);

  it.each([
    ['1e309', '{"symbol":"ABC","name":"n","weight":1e309}'],
    ['-1e309', '{"symbol":"ABC","name":"n","weight":-1e309}'],
    ['1e309 where the schema takes anything', '{"symbol":"ABC","name":"n","weight":1,"extra":[1e999]}'],
  ])('refuses %s with a 400, storing nothing', async (_name, payload) => {
    const response = await postRaw(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation_failed', message: expect.stringMatching(/finite/) });
    expect(await storedNames()).toEqual([]);
  });

  it.each([
    ['entry_max_position_size', { ...FULL_STRATEGY, entry_max_position_size: '__INF__' }],
    ['credit_min_amount', { ...FULL_STRATEGY, credit_min_amount: '__INF__' }],
  ])('refuses 1e309 as a strategy’s %s', async (field, body) => {
    const before = await strategyRows(db().handle.db);
    const response = await user.client.post('/api/strategies', JSON.stringify(body).replace('"__INF__"', '1e309'));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation_failed', details: [{ field: `body.${field}` }] });
    expect(await strategyRows(db().handle.db)).toEqual(before);
  });

  it('refuses 1e309 as the compliance price', async () => {
    const response = await user.client.post('/api/trading/compliance-check', '{"strategy_id":1,"symbol":"SPY","qty":1,"side":"buy","price":1e309}');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation_failed', details: [{ field: 'body.price' }] });
  });

  it.each([
    ['a byte that is no UTF-8 (0xFF)', Buffer.concat([Buffer.from('{"symbol":"ABC","name":"a'), Buffer.from([0xff]), Buffer.from('b"}')])],
    ['a truncated sequence (0xE2 0x82)', Buffer.concat([Buffer.from('{"symbol":"ABC","name":"a'), Buffer.from([0xe2, 0x82]), Buffer.from('"}')])],
    ['an encoded surrogate (0xED 0xA0 0x80)', Buffer.concat([Buffer.from('{"symbol":"ABC","name":"a'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')])],
    ['an overlong slash (0xC0 0xAF)', Buffer.concat([Buffer.from('{"symbol":"ABC","name":"a'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')])],
  ])('refuses %s with a 400, storing nothing', async (_name, payload) => {
    const response = await postRaw(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'malformed_json', message: expect.stringMatching(/UTF-8/) });
    expect(await storedNames()).toEqual([]);
  });

  it.each([
    ['a lone high surrogate', '{"symbol":"ABC","name":"a\\ud800b"}', 'body.name'],
    ['a lone low surrogate', '{"symbol":"ABC","name":"\\udc00"}', 'body.name'],
    ['a surrogate at the end', '{"symbol":"ABC","name":"ab\\udbff"}', 'body.name'],
    ['a lone surrogate in a key', '{"symbol":"ABC","name":"n","\\ud800":1}', 'body'],
  ])('refuses %s (as a \\u escape) with a 400, storing nothing', async (_name, payload, field) => {
    const response = await postRaw(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation_failed', details: [{ field }] });
    expect(await storedNames()).toEqual([]);
  });

  it('refuses a lone surrogate in a strategy name, storing nothing', async () => {
    const before = await strategyRows(db().handle.db);
    const response = await user.client.post('/api/strategies', JSON.stringify({ ...FULL_STRATEGY, name: 'x' }).replace('"x"', '"x\\ud800"'));
    expect(response.statusCode).toBe(400);
    expect(await strategyRows(db().handle.db)).toEqual(before);
  });

  it('stores text outside the BMP (a surrogate pair), as an escape and as UTF-8, unchanged', async () => {
    expect((await postRaw('{"symbol":"ABC","name":"chart \\ud83d\\udcc8"}')).statusCode).toBe(201);
    expect((await postRaw(Buffer.from('{"symbol":"ABD","name":"chart 📈 é"}', 'utf8'))).statusCode).toBe(201);
    expect((await storedNames()).sort()).toEqual(['chart 📈', 'chart 📈 é']);
  });
});
