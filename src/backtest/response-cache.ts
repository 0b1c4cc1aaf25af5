/**
 * Serialized response bodies (UTF-8 bytes, so a hit is sent without encoding again) by key, least
 * recently used first out, bounded by their total size.
 * A backtest body is a pure function of the request and the symbol's `bars_version`, so a body stored
 * under a key holding both is never stale: a change to the bars raises the version and the old entries
 * simply stop being asked for and age out.
 */
export class ResponseCache {
  readonly #bodies = new Map<string, Buffer>();
  #size = 0;

  constructor(private readonly maxBytes: number) {}

  async getOrCreate(key: string, create: () => Promise<string | Buffer>): Promise<Buffer> {
    const hit = this.#bodies.get(key);
    if (hit !== undefined) {
      this.#bodies.delete(key);
      this.#bodies.set(key, hit);
      return hit;
    }
    const created = await create();
    const body = typeof created === 'string' ? Buffer.from(created) : created;
    // Two concurrent misses of one key compute twice; only the first is kept.
    if (!this.#bodies.has(key) && body.length <= this.maxBytes / 4) {
      this.#bodies.set(key, body);
      this.#size += body.length;
      for (const [oldKey, old] of this.#bodies) {
        if (this.#size <= this.maxBytes) break;
        this.#bodies.delete(oldKey);
        this.#size -= old.length;
      }
    }
    return body;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.#bodies.size, bytes: this.#size };
  }
}
