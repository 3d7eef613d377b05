/**
 * A seeded pseudo-random source (mulberry32): the same seed gives the same catalogue on every
 * machine, so demo data, tests and benchmarks are reproducible.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** `count` distinct items (fewer if there are not enough). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0) out.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0]);
    return out;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** A child source, so adding records to one generator does not shift another's output. */
  fork(label: string): Random {
    let h = this.state ^ 0x9e3779b9;
    for (const ch of label) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
    return new Random(h >>> 0);
  }
}
