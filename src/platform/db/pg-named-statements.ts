import type pg from 'pg';

/** How many named statements one connection keeps on the server (the app's queries number a few hundred). */
export const NAMED_STATEMENTS_PER_CONNECTION = 200;
/** How many distinct SQL texts one pool gives a name to (`in (…)` lists of varying length make new texts). */
export const NAMED_TEXTS_PER_POOL = 2_000;

/**
 * Makes each pooled connection send parameterised queries as named prepared statements: the server parses and
 * plans a text once per connection and then only binds and executes it. Kysely's pg driver calls
 * `client.query(text, values)`, which pg sends unnamed, so the server parses every query again; the issue 17
 * profile found that on the session check. Prepared statements live per connection, so each connection names at
 * most `perConnection` texts (later ones go unnamed); names are shared across the pool's connections (pg refuses
 * one name for two texts on a connection), at most `perPool` of them. Queries without parameters stay on the
 * simple protocol: `begin`, `commit` and multi-statement migration texts are not preparable as one.
 */
export function namingStatements(pool: pg.Pool, perConnection = NAMED_STATEMENTS_PER_CONNECTION, perPool = NAMED_TEXTS_PER_POOL): void {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < perPool) {
      name = `tradelab_${names.size + 1}`;
      names.set(text, name);
    }
    return name;
  };
  pool.on('connect', (client) => {
    const named = new Set<string>();
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
      if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
        const name = named.has(config) || named.size < perConnection ? nameOf(config) : undefined;
        if (name !== undefined) {
          named.add(config);
          return query({ name, text: config, values }, callback);
        }
      }
      return query(config, values, callback);
    }) as typeof client.query;
  });
}
