/**
 * Runs async critical sections one at a time per key, in arrival order.
 *
 * Why: FerretDB v1 (the local engine) applies an update as read, modify in memory, write back,
 * without isolation: 200 concurrent `$inc` on one document leave it at about 20. Every
 * read-modify-write of one document therefore goes through this lock in the owning service.
 * On MongoDB the same `$inc`/`$addToSet` operators are atomic on their own, so the lock only
 * costs a queue hop. See docs/ENGINES.md.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    await previous;
    try {
      return await task();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Locks several keys in a fixed order (no deadlock between two multi-key sections). */
  async runAll<T>(keys: string[], task: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const step = (i: number): Promise<T> => (i === sorted.length ? task() : this.run(sorted[i], () => step(i + 1)));
    return step(0);
  }

  get size(): number {
    return this.tails.size;
  }
}
