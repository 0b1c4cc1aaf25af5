import { formatCount } from './format';

/** Rows per page where a list pages: the API's default `limit`. */
export const PAGE_SIZE = 50;

/** Where a page of a paged list starts, its row count, and the total (`X-Total-Count`). */
export interface PageSpan {
  readonly offset: number;
  readonly shown: number;
  readonly total: number;
}

/** "1–50 of 120" when the page is part of the list, else the total alone ("12"). */
export function rangeText(span: PageSpan): string {
  if (span.shown > 0 && span.shown < span.total) return `${formatCount(span.offset + 1)}–${formatCount(span.offset + span.shown)} of ${formatCount(span.total)}`;
  return formatCount(span.total);
}
