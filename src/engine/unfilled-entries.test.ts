import { describe, expect, it } from 'vitest';
import { firstBars, loadSpxBars } from '../../test/fixtures/bar-series.js';
import { defaultParameters, findTemplate, runTemplateBacktest, unfilledEntries } from './index.js';

const spx = firstBars(loadSpxBars(), 300);

describe('entry signals that no cash could fill', () => {
  it('counts buy and hold\'s one signal, filled at bar 1\'s open, when the capital is below that price', () => {
    const template = findTemplate('buy_and_hold')!;
    expect(runTemplateBacktest(spx, template, {}, 100).trades).toEqual([]);
    expect(unfilledEntries(spx, 'buy_and_hold', {})).toEqual({ count: 1, firstFillBar: 1 });
  });

  it('counts every entry signal of a crossover before the last bar, the first fill after the first signal', () => {
    const template = findTemplate('sma_crossover')!;
    const params = defaultParameters(template);
    const entries = unfilledEntries(spx, 'sma_crossover', params)!;
    const enough = runTemplateBacktest(spx, template, params, 1e9).trades;
    // With cash for a share each time, every entry signal before the last bar is a BUY, on the same bars.
    expect(entries.count).toBe(enough.filter((trade) => trade.type === 'BUY').length);
    expect(spx.dates[entries.firstFillBar]).toBe(enough[0]!.date.slice(0, 10));
  });

  it('is undefined when the template never signals an entry before the last bar', () => {
    expect(unfilledEntries(firstBars(spx, 1), 'buy_and_hold', {})).toBeUndefined();
  });
});
