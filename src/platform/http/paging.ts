import type { FastifyReply } from 'fastify';

/** One page of a list, and how many items the whole list holds. */
export interface Page<T> {
  readonly items: T[];
  readonly total: number;
}

/** A page as DESIGN's pagination sends it: the items as the body, the whole list's size in `X-Total-Count`. */
export function pageReply<T>(reply: FastifyReply, page: Page<T>): T[] {
  reply.header('x-total-count', String(page.total));
  return page.items;
}
