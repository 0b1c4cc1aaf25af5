/** One request of the soak: its route (method and path pattern), answer status and latency. */
export interface Sample {
  readonly route: string;
  readonly status: number;
  readonly ms: number;
}

export interface RouteFigures {
  route: string;
  requests: number;
  per_second: number;
  p50_ms: number;
  p99_ms: number;
  /** Status → how many, e.g. `{ "200": 812, "201": 3 }`. */
  statuses: Record<string, number>;
}

export interface WaitFigures {
  what: string;
  count: number;
  p50_s: number;
  p99_s: number;
}

/** Every request the simulated users sent, and what they turned into per route. */
export class Recorder {
  readonly samples: Sample[] = [];
  /** Waits that are no request, such as for a mail: what → milliseconds, each time. */
  readonly waits = new Map<string, number[]>();

  add(sample: Sample): void {
    this.samples.push(sample);
  }

  addWait(what: string, ms: number): void {
    const list = this.waits.get(what) ?? [];
    list.push(ms);
    this.waits.set(what, list);
  }

  /** Each wait's count, p50 and p99 in seconds. */
  waitFigures(): WaitFigures[] {
    return [...this.waits.entries()].map(([what, list]) => {
      const sorted = [...list].sort((a, b) => a - b);
      return { what, count: sorted.length, p50_s: round(percentile(sorted, 0.5) / 1000), p99_s: round(percentile(sorted, 0.99) / 1000) };
    });
  }

  /** Per route, busiest first; `seconds` is the length of the run the rates are over. */
  byRoute(seconds: number): RouteFigures[] {
    const routes = new Map<string, Sample[]>();
    for (const sample of this.samples) {
      const list = routes.get(sample.route) ?? [];
      list.push(sample);
      routes.set(sample.route, list);
    }
    return [...routes.entries()]
      .map(([route, samples]) => {
        const latencies = samples.map((s) => s.ms).sort((a, b) => a - b);
        return {
          route,
          requests: samples.length,
          per_second: round(samples.length / seconds),
          p50_ms: round(percentile(latencies, 0.5)),
          p99_ms: round(percentile(latencies, 0.99)),
          statuses: countBy(samples.map((s) => String(s.status))),
        };
      })
      .sort((a, b) => b.requests - a.requests || a.route.localeCompare(b.route));
  }

  /** Status → how many, over every route. */
  statuses(): Record<string, number> {
    return countBy(this.samples.map((s) => String(s.status)));
  }
}

export function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

export const round = (value: number) => Math.round(value * 10) / 10;

function countBy(keys: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of [...keys].sort()) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}
