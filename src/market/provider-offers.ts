import type { FastifyBaseLogger } from 'fastify';
import { MINUTE, SECOND, type Clock } from '../platform/clock.js';
import type { ProviderSymbol } from './market-data-provider.js';

/** A provider's answer to one query is reused this long: the tickers it knows change far more slowly. */
export const OFFERS_TTL_MS = 5 * MINUTE;
/** A failed search is not asked again for this long, so a provider that is down is not asked at every keystroke. */
export const FAILED_OFFERS_TTL_MS = 30 * SECOND;
/** Shorter queries are not sent: one letter matches thousands of tickers and says nothing yet. */
export const MIN_PROVIDER_QUERY = 2;
const MAX_QUERIES = 1000;

/** What the provider offered for a query: its tickers, `unavailable` when it failed, `not_asked` when it was not asked. */
export type ProviderOffer = { readonly status: 'offered'; readonly symbols: readonly ProviderSymbol[] } | { readonly status: 'unavailable' | 'not_asked' };

/**
 * A provider's symbol search behind a per-process cache, per query (any case): answers, and failures for a shorter
 * while, are reused; concurrent requests for one query share one call; at most 1,000 queries are kept, the oldest
 * dropped first. A failure is logged and answered `unavailable`, never thrown: the stored matches answer regardless.
 */
export class ProviderOffers {
  readonly #entries = new Map<string, { readonly at: number; readonly offer: ProviderOffer }>();
  readonly #asking = new Map<string, Promise<ProviderOffer>>();

  constructor(
    private readonly search: ((query: string) => Promise<ProviderSymbol[]>) | undefined,
    private readonly clock: Clock,
    private readonly logger: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  async for(query: string): Promise<ProviderOffer> {
    const key = query.trim().toLowerCase();
    if (this.search === undefined || key.length < MIN_PROVIDER_QUERY) return { status: 'not_asked' };
    const cached = this.#entries.get(key);
    const now = this.clock.now().getTime();
    if (cached !== undefined && now - cached.at < (cached.offer.status === 'offered' ? OFFERS_TTL_MS : FAILED_OFFERS_TTL_MS)) return cached.offer;
    const running = this.#asking.get(key);
    if (running !== undefined) return running;
    const asking = this.#ask(this.search, key).finally(() => this.#asking.delete(key));
    this.#asking.set(key, asking);
    return asking;
  }

  async #ask(search: (query: string) => Promise<ProviderSymbol[]>, key: string): Promise<ProviderOffer> {
    let offer: ProviderOffer;
    try {
      offer = { status: 'offered', symbols: await search(key) };
    } catch (error) {
      this.logger.warn({ err: error, query: key }, 'market-data provider search failed; answering with stored symbols only');
      offer = { status: 'unavailable' };
    }
    this.#entries.delete(key);
    this.#entries.set(key, { at: this.clock.now().getTime(), offer });
    if (this.#entries.size > MAX_QUERIES) this.#entries.delete(this.#entries.keys().next().value!);
    return offer;
  }
}
