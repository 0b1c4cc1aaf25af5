import { useEffect, useState } from 'preact/hooks';
import { Notice } from '../ui/form';
import { clippedPeriodNotice, type DayRange } from './symbol-words';
import type { SymbolEntry } from './types';
import { storedSymbol } from './use-symbol-search';

/**
 * Above a result: the period asked for, and where the data clips it ("You asked for 2019-01-01 to 2024-12-31; the
 * data ends 2020-04-17."). Reads each symbol's stored range after the run (the run may have fetched it); nothing
 * when the data covers the period.
 */
export function DataClipNotice(props: { asked: DayRange; used: DayRange; symbols: readonly string[] }) {
  const [stored, setStored] = useState<readonly SymbolEntry[] | undefined>(undefined);
  const key = [props.symbols.join(','), props.asked.from, props.asked.to, props.used.from, props.used.to].join(' ');
  useEffect(() => {
    let current = true;
    setStored(undefined);
    Promise.all(props.symbols.map((symbol) => storedSymbol(symbol).catch(() => undefined))).then(
      (found) => current && setStored(found.filter((entry): entry is SymbolEntry => entry !== undefined)),
    );
    return () => void (current = false);
  }, [key]);
  if (stored === undefined) return null;
  const notice = clippedPeriodNotice(props.asked, props.used, stored);
  return notice ? <Notice kind="info">{notice}</Notice> : null;
}
