import type { CompiledQuery } from 'kysely';
import type { DbOrTx } from './database.js';

/**
 * A statement on every request's path, built and compiled by Kysely once per database handle and then run with
 * its placeholders replaced by the call's values: building and compiling the query costs more than SQLite running
 * it (docs/benchmarks.md, issue 17). `build` must use each placeholder as a value (a parameter) of the statement;
 * the values of a call are given in the order of `placeholders`. Result rows still pass through the plugins.
 */
export function compiledOnce<Row>(
  placeholders: readonly string[],
  build: (db: DbOrTx) => { compile(): CompiledQuery<Row> },
): (db: DbOrTx, values: readonly unknown[]) => CompiledQuery<Row> {
  const byHandle = new WeakMap<DbOrTx, CompiledQuery<Row>>();
  return (db, values) => {
    let compiled = byHandle.get(db);
    if (compiled === undefined) {
      compiled = build(db).compile();
      for (const placeholder of placeholders) {
        if (!compiled.parameters.includes(placeholder)) throw new Error(`compiledOnce: placeholder ${JSON.stringify(placeholder)} is not a parameter of ${compiled.sql}`);
      }
      byHandle.set(db, compiled);
    }
    const parameters = compiled.parameters.map((p) => {
      const at = typeof p === 'string' ? placeholders.indexOf(p) : -1;
      return at < 0 ? p : values[at];
    });
    return { ...compiled, parameters };
  };
}
