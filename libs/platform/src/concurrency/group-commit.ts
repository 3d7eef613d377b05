interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: the first call is written at once; the calls that arrive while a write is under
 * way wait together and go in the next write, one round trip for all of them. Idle, a call costs
 * what it did alone; busy, the round trips per call fall as the load rises. Each caller gets its
 * own item's result; a failed write fails every call in it, and the next write is tried afresh.
 *
 * Why: the local engine (FerretDB on SQLite) runs every write command as a transaction of its
 * own, one at a time per database, so under load a service's writes queue for the database's lock
 * (docs/PERFORMANCE.md, "Writes").
 */
export class GroupCommit<T, R> {
  /** Calls for the next write; present while writes run. */
  private waiting: Array<Waiting<T, R>> | undefined;

  /** `write` returns one result per item, in the items' order. */
  constructor(private readonly write: (items: T[]) => Promise<R[]>) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (this.waiting) return void this.waiting.push({ item, resolve, reject });
      this.waiting = [{ item, resolve, reject }];
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    for (let batch = this.waiting; batch && batch.length > 0; batch = this.waiting) {
      this.waiting = [];
      try {
        const results = await this.write(batch.map((w) => w.item));
        batch.forEach((w, i) => w.resolve(results[i]));
      } catch (err) {
        batch.forEach((w) => w.reject(err));
      }
    }
    this.waiting = undefined;
  }
}
