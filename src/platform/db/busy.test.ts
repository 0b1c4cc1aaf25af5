import { describe, expect, it } from 'vitest';
import { retryWhenBusy } from './busy.js';

const contention = (code: string) => Object.assign(new Error('rolled back'), { code });

describe('retryWhenBusy', () => {
  it('runs a transaction the database rolled back for contention again, and answers its result', async () => {
    const failures = [contention('40P01'), contention('SQLITE_BUSY')];
    let runs = 0;
    const answer = await retryWhenBusy(async () => {
      runs += 1;
      const failure = failures.shift();
      if (failure) throw failure;
      return 'erased';
    });
    expect({ answer, runs }).toEqual({ answer: 'erased', runs: 3 });
  });

  it('throws any other error at once, and the contention of the last run', async () => {
    let runs = 0;
    await expect(
      retryWhenBusy(async () => {
        runs += 1;
        throw new Error('a bug');
      }),
    ).rejects.toThrow('a bug');
    expect(runs).toBe(1);
    runs = 0;
    await expect(
      retryWhenBusy(async () => {
        runs += 1;
        throw contention('40001');
      }, 2),
    ).rejects.toMatchObject({ code: '40001' });
    expect(runs).toBe(2);
  });
});
