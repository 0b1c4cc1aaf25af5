import SQLite from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { cachingStatements } from './statement-cache.js';

let sqlite: SQLite.Database;
afterEach(() => {
  if (sqlite?.open) sqlite.close();
});

function table(): SQLite.Database {
  sqlite = new SQLite(':memory:');
  sqlite.exec('create table t (n integer); insert into t values (1), (2), (3)');
  return sqlite;
}

it('reuses the prepared statement of the same SQL text', () => {
  const db = cachingStatements(table());
  const first = db.prepare('select n from t where n > ?');
  expect(db.prepare('select n from t where n > ?')).toBe(first);
  expect(first.all([1])).toEqual([{ n: 2 }, { n: 3 }]);
  expect(db.prepare('select n from t where n > ?').all([2])).toEqual([{ n: 3 }]);
});

it('a statement busy iterating (a streamed select) is not handed out again: the second caller gets a fresh one', () => {
  const db = cachingStatements(table());
  const sql = 'select n from t order by n';
  const iterating = db.prepare(sql).iterate([]);
  expect(iterating.next().value).toEqual({ n: 1 });
  const again = db.prepare(sql);
  expect(again.all([])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  expect([...iterating]).toEqual([{ n: 2 }, { n: 3 }]);
  expect(db.prepare(sql)).not.toBe(again);
});

it('keeps at most `size` statements, dropping the least recently used', () => {
  const db = cachingStatements(table(), 2);
  const a = db.prepare('select 1');
  const b = db.prepare('select 2');
  expect(db.prepare('select 1')).toBe(a); // a is now the most recently used
  db.prepare('select 3'); // evicts b
  expect(db.prepare('select 1')).toBe(a);
  expect(db.prepare('select 2')).not.toBe(b);
});

it('sees schema changes made after a statement was cached', () => {
  const db = cachingStatements(table());
  expect(db.prepare('select * from t limit 1').all([])).toEqual([{ n: 1 }]);
  sqlite.exec('alter table t add column m integer default 7');
  expect(db.prepare('select * from t limit 1').all([])).toEqual([{ n: 1, m: 7 }]);
});
