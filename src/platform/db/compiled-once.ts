import type { CompiledQuery, KyselyPlugin } from 'kysely';
import type { DbOrTx } from './database.js';

interface Compiled<Row> {
  readonly plugins: readonly KyselyPlugin[];
  readonly query: CompiledQuery<Row>;
}

/**
 * A statement on every request's path, built and compiled by Kysely once per database and then run with
 * its placeholders replaced by the call's values: building and compiling the query costs more than SQLite running
 * it (docs/benchmarks.md, issue 17). `build` must use each placeholder as a value (a parameter) of the statement;
 * the values of a call are given in the order of `placeholders`. Result rows still pass through the plugins.
 *
 * The compiled text is kept per dialect adapter (one per `Kysely` instance, shared by its transactions) and plugin
 * list, so a statement run inside `db.transaction()` reuses the text compiled on `db`. Values are placed after the
 * plugins ran: a value a plugin would rewrite (a boolean on SQLite) must not be a placeholder.
 */
export function compiledOnce<Row>(
  placeholders: readonly string[],
  build: (db: DbOrTx) => { compile(): CompiledQuery<Row> },
): (db: DbOrTx, values: readonly unknown[]) => CompiledQuery<Row> {
  const byAdapter = new WeakMap<object, Compiled<Row>[]>();
  return (db, values) => {
    const executor = db.getExecutor();
    let known = byAdapter.get(executor.adapter);
    if (known === undefined) byAdapter.set(executor.adapter, (known = []));
    let compiled = known.find((entry) => samePlugins(entry.plugins, executor.plugins))?.query;
    if (compiled === undefined) {
      compiled = build(db).compile();
      for (const placeholder of placeholders) {
        if (!compiled.parameters.includes(placeholder)) throw new Error(`compiledOnce: placeholder ${JSON.stringify(placeholder)} is not a parameter of ${compiled.sql}`);
      }
      known.push({ plugins: [...executor.plugins], query: compiled });
    }
    const parameters = compiled.parameters.map((p) => {
      const at = typeof p === 'string' ? placeholders.indexOf(p) : -1;
      return at < 0 ? p : values[at];
    });
    return { ...compiled, parameters };
  };
}

function samePlugins(a: readonly KyselyPlugin[], b: readonly KyselyPlugin[]): boolean {
  return a.length === b.length && a.every((plugin, i) => plugin === b[i]);
}
