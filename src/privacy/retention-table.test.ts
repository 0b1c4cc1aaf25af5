import { describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE } from '../platform/clock.js';
import { RETENTION } from '../platform/retention/retention-periods.js';
import { BREACH_RETENTION } from '../admin/breach-retention.js';
import { toCsv } from './export-bundle.js';
import { PRIVACY_RETENTION } from './privacy-retention.js';
import { period, retentionTable } from './retention-table.js';

describe('the retention table', () => {
  it('says periods in words', () => {
    expect([period(730 * DAY), period(30 * DAY), period(1 * DAY), period(12 * HOUR), period(15 * MINUTE)]).toEqual([
      '2 years', '30 days', '1 day', '12 hours', '15 minutes',
    ]);
  });

  it('is written from the constants the jobs enforce', () => {
    const rows = retentionTable();
    expect(rows.find((r) => r.data.startsWith('Audit'))!.kept_for).toBe(period(RETENTION.auditEntries));
    expect(rows.find((r) => r.data.startsWith('Your account after'))!.kept_for).toContain(period(PRIVACY_RETENTION.erasureCooling));
    for (const row of rows) expect(Object.keys(row)).toEqual(['data', 'kept_for', 'why']);
    expect(rows.find((r) => r.data.startsWith('Expired export links'))!.kept_for).toContain(period(PRIVACY_RETENTION.exportTombstones));
    expect(rows.find((r) => r.data.startsWith('Breach incidents'))!.kept_for).toBe(`${period(BREACH_RETENTION.closedIncidents)} after it is closed`);
    expect(rows.find((r) => r.data.startsWith('Background jobs'))!.kept_for).toContain(period(RETENTION.deadJobs));
    expect(rows.find((r) => r.data.startsWith('Development mail files'))).toBeDefined();
  });
});

describe('toCsv', () => {
  it('writes RFC 4180: header even when empty, CRLF, quoted commas, quotes and line breaks, JSON for objects', () => {
    expect(toCsv(['a', 'b'], [])).toBe('a,b\r\n');
    expect(toCsv(['a', 'b', 'c', 'd'], [{ a: 'x,y', b: 'say "hi"', c: 'two\nlines', d: null }, { a: 1, b: true, c: { k: [1] }, d: undefined }])).toBe(
      'a,b,c,d\r\n"x,y","say ""hi""","two\nlines",\r\n1,true,"{""k"":[1]}",\r\n',
    );
  });

  it('prefixes text cells starting with = + - @ tab or CR with a quote (OWASP CSV injection), not numbers', () => {
    const row = { a: '=HYPERLINK("x")', b: '+1+2', c: '-2+3', d: '@SUM(A1)', e: '\tx', f: '\rx', g: -12.5, h: '-12.5', i: 'plain' };
    expect(toCsv(Object.keys(row), [row])).toBe(
      'a,b,c,d,e,f,g,h,i\r\n"\'=HYPERLINK(""x"")",\'+1+2,\'-2+3,\'@SUM(A1),\'\tx,"\'\rx",-12.5,-12.5,plain\r\n',
    );
  });
});
