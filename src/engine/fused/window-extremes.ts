/**
 * The highest (lowest) of the last `period` values pushed, kept by a monotonic deque of indices in a ring: each
 * push drops the index that left the window and every index behind it whose value cannot be an extreme any more.
 * O(1) amortised per bar, nothing allocated after construction. The extreme is the same number as indicators.ts
 * highest / lowest give for NaN-free values (a maximum does not depend on how it is found); with a NaN the two
 * differ, so the caller checks for NaN itself. WindowLowest is the same deque with the comparison flipped: two
 * classes rather than one with a comparator, so the hot loop stays monomorphic and inlined.
 */
export class WindowHighest {
  private readonly ring: Int32Array;
  private head = 0;
  private size = 0;

  constructor(
    private readonly values: Float64Array,
    private readonly period: number,
  ) {
    this.ring = new Int32Array(period);
  }

  /** Bar i joins the window (i one more than the last push). */
  push(i: number): void {
    const { ring, values, period } = this;
    if (this.size > 0 && ring[this.head]! <= i - period) {
      this.head = this.head + 1 === period ? 0 : this.head + 1;
      this.size--;
    }
    const v = values[i]!;
    while (this.size > 0) {
      const back = this.head + this.size - 1;
      if (values[ring[back >= period ? back - period : back]!]! > v) break;
      this.size--;
    }
    const slot = this.head + this.size;
    ring[slot >= period ? slot - period : slot] = i;
    this.size++;
  }

  /** The highest value among the last `period` bars pushed (requires a push). */
  extreme(): number {
    return this.values[this.ring[this.head]!]!;
  }
}

export class WindowLowest {
  private readonly ring: Int32Array;
  private head = 0;
  private size = 0;

  constructor(
    private readonly values: Float64Array,
    private readonly period: number,
  ) {
    this.ring = new Int32Array(period);
  }

  /** Bar i joins the window (i one more than the last push). */
  push(i: number): void {
    const { ring, values, period } = this;
    if (this.size > 0 && ring[this.head]! <= i - period) {
      this.head = this.head + 1 === period ? 0 : this.head + 1;
      this.size--;
    }
    const v = values[i]!;
    while (this.size > 0) {
      const back = this.head + this.size - 1;
      if (values[ring[back >= period ? back - period : back]!]! < v) break;
      this.size--;
    }
    const slot = this.head + this.size;
    ring[slot >= period ? slot - period : slot] = i;
    this.size++;
  }

  /** The lowest value among the last `period` bars pushed (requires a push). */
  extreme(): number {
    return this.values[this.ring[this.head]!]!;
  }
}
