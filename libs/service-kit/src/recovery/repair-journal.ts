import { ApiError } from '@plaza/contracts';
import { GroupCommit, Metrics } from '@plaza/platform';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Connection } from 'mongoose';
import { databaseWrites } from '../mongo/database-writes';

/* Shared by the note, event and book services (`@plaza/service-kit`); docs/ENGINES.md, point 3. */

/**
 * How long a finished write's entry waits for its removal, so that one delete removes the entries
 * of the writes that finish meanwhile (docs/PERFORMANCE.md, "Writes"). A crash within it leaves
 * finished entries behind, which the next sweep repairs: harmless, since a repair is idempotent.
 */
export const REMOVAL_BATCH_MS = 100;

/**
 * One multi-document write that has started and not yet been seen through: written before the
 * write's first step, removed after its last. Whatever it names is re-derived from its sources by
 * the owning service's repair, so an entry left behind by a process that died midway is completed
 * later, at least once, and repairing twice changes nothing.
 */
export interface RepairEntry {
  _id: string;
  /** What the write changes in several documents, e.g. `note:1042`: the unit a repair re-derives. */
  targets: string[];
  /** Pictures the write accepts or deletes, so that a repair can settle them too. */
  keys?: string[];
  /** The process that wrote it (host, pid, a random part: a restarted process is another owner). */
  owner: string;
  created: Date;
}

export interface SweepResult {
  /** Entries seen (this process's writes in flight excluded). */
  entries: number;
  /** Targets repaired, and those whose repair failed (retried by the next sweep). */
  repaired: number;
  failed: number;
  /** Entries removed after their targets were repaired. */
  removed: number;
}

/**
 * Re-derives a target from its sources. `settled` is false when a writer of it may still be
 * running (another instance's recent entry, where several may run): then only what is right
 * while it writes may be done (a recount from the source is; settling pictures the writer is
 * about to use, or a correction by a difference, is not).
 */
export type RepairTarget = (target: string, keys: string[], settled: boolean) => Promise<void>;

/**
 * A service's journal of multi-document writes in flight, in a collection of its own database.
 * On FerretDB (and a MongoDB without a replica set) each service runs as one instance (docs/ENGINES.md),
 * so an entry of another owner belongs to a process that is gone and is repaired at once. With
 * several instances (a replica set) another owner may be alive: until `graceMs` has passed (by
 * when a live writer has long finished) its entry is repaired only as far as is right while it
 * writes, and kept.
 */
export class RepairJournal {
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly inFlight = new Set<string>();
  private finished: string[] = [];
  /** Entries of writes that finished, until their removal is written. */
  private readonly done = new Set<string>();
  private flushing?: Promise<void>;
  /** Ends the wait of the removals due (`flush` ends it early). */
  private removeNow?: () => void;
  private sweeping?: Promise<SweepResult>;
  private singleInstance?: Promise<boolean>;
  /** Entries of writes that start while others' are being inserted go in together (one insert command). */
  private readonly inserts = new GroupCommit<RepairEntry, void>(async (entries) => {
    await databaseWrites(this.connection).run(() => this.entries().insertMany(entries));
    return [];
  });

  constructor(
    private readonly connection: Connection,
    readonly collectionName: string,
    private readonly graceMs = 120_000,
    private readonly now: () => number = Date.now,
  ) {}

  private entries() {
    return this.connection.collection<RepairEntry>(this.collectionName);
  }

  /**
   * Runs a multi-document write under an entry naming its targets. The entry is written first
   * (an insert by `_id`, grouped with the entries of the writes that start meanwhile); once `work` has succeeded, or refused with an ApiError (a refusal
   * leaves its documents consistent), it is removed, in a batch after the answer (`finish`). If `work` fails
   * otherwise or the process dies, the entry stays and the next sweep repairs its targets.
   */
  async run<T>(targets: string[], work: () => Promise<T>, keys: string[] = []): Promise<T> {
    const id = randomBytes(12).toString('hex');
    this.inFlight.add(id);
    try {
      const entry: RepairEntry = { _id: id, targets, owner: this.owner, created: new Date(this.now()) };
      if (keys.length > 0) entry.keys = keys;
      await this.inserts.add(entry);
      let result: T;
      try {
        result = await work();
      } catch (err) {
        if (err instanceof ApiError) this.finish(id);
        throw err;
      }
      this.finish(id);
      return result;
    } finally {
      this.inFlight.delete(id);
    }
  }

  /** Targets that have an entry: a write of them is under way, or one died and awaits its repair. */
  async openTargets(): Promise<Set<string>> {
    const all = (await this.entries().find({}).toArray()).filter((e) => !this.done.has(e._id));
    return new Set(all.flatMap((e) => e.targets));
  }

  /**
   * Entries of writes that finished are removed together, off the answer's path: those that
   * finish within REMOVAL_BATCH_MS of the first in one delete, and those that finish during a
   * delete in the next.
   */
  private finish(id: string): void {
    this.finished.push(id);
    this.done.add(id);
    if (this.flushing) return;
    this.flushing = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, REMOVAL_BATCH_MS);
      this.removeNow = () => {
        clearTimeout(timer);
        resolve();
      };
    })
      .then(async () => {
        this.removeNow = undefined;
        while (this.finished.length > 0) {
          const ids = this.finished;
          this.finished = [];
          // a failure leaves them for the sweep, which repairs (harmlessly) and removes them
          await databaseWrites(this.connection).run(() => this.entries().deleteMany({ _id: { $in: ids } })).catch(() => undefined);
          for (const id of ids) this.done.delete(id);
        }
      })
      .finally(() => (this.flushing = undefined));
  }

  /** Writes pending removals now and waits for them (shutdown, tests). */
  async flush(): Promise<void> {
    this.removeNow?.();
    while (this.flushing) await this.flushing;
  }

  /** Repairs the targets of every entry this process is not working on, then removes the entries it may. */
  sweep(repair: RepairTarget): Promise<SweepResult> {
    if (!this.sweeping) this.sweeping = this.sweepOnce(repair).finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepOnce(repair: RepairTarget): Promise<SweepResult> {
    const single = await this.isSingleInstance();
    const now = this.now();
    // this process's writes under way are not due; those that finished need no repair, only their removal
    const entries = (await this.entries().find({}).toArray()).filter((e) => !this.inFlight.has(e._id) && !this.done.has(e._id));
    // another owner's recent entry, where several instances may run: its writer may be alive
    const settled = (e: RepairEntry) => e.owner === this.owner || single || now - new Date(e.created).getTime() >= this.graceMs;
    const targets = new Map<string, { keys: Set<string>; settled: boolean }>();
    for (const e of entries) {
      for (const target of e.targets) {
        const t = targets.get(target) ?? { keys: new Set<string>(), settled: true };
        for (const key of e.keys ?? []) t.keys.add(key);
        t.settled &&= settled(e);
        targets.set(target, t);
      }
    }
    const done = new Set<string>();
    let repaired = 0;
    let failed = 0;
    for (const [target, t] of targets) {
      try {
        await repair(target, [...t.keys], t.settled);
        repaired++;
        if (t.settled) done.add(target);
      } catch {
        failed++;
      }
    }
    Metrics.journalRepairs('repaired', repaired);
    Metrics.journalRepairs('failed', failed);
    const removable = entries.filter((e) => e.targets.every((t) => done.has(t))).map((e) => e._id);
    if (removable.length > 0) await this.entries().deleteMany({ _id: { $in: removable } });
    return { entries: entries.length, repaired, failed, removed: removable.length };
  }

  /** False on a replica set or a sharded cluster, where several instances of a service may write. */
  isSingleInstance(): Promise<boolean> {
    if (!this.singleInstance) {
      this.singleInstance = this.detect();
      this.singleInstance.catch(() => (this.singleInstance = undefined));
    }
    return this.singleInstance;
  }

  private async detect(): Promise<boolean> {
    const db = this.connection.db;
    if (!db) throw new Error('database not connected yet');
    const hello = await db.admin().command({ hello: 1 });
    return !hello.setName && hello.msg !== 'isdbgrid';
  }
}

/**
 * Sweeps at once and then every `intervalMs`; `first` resolves after the first sweep that ran
 * (a failed one, say with the database away, is retried every second until then).
 */
export function scheduleSweeps(sweep: () => Promise<unknown>, intervalMs: number, onError: (err: Error) => void): { first: Promise<void>; stop(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const first = (async () => {
    while (!stopped) {
      try {
        await sweep();
        return;
      } catch (err) {
        onError(err as Error);
        await new Promise((resolve) => setTimeout(resolve, 1000).unref());
      }
    }
  })();
  void first.then(() => {
    if (stopped) return;
    timer = setInterval(() => void sweep().catch(onError), intervalMs);
    timer.unref();
  });
  return {
    first,
    stop: () => {
      stopped = true;
      if (timer) clearInterval(timer);
    },
  };
}

/** A target's kind and id: `note:1042` → ['note', '1042']. */
export function splitTarget(target: string): [string, string] {
  const at = target.indexOf(':');
  return at < 0 ? [target, ''] : [target.slice(0, at), target.slice(at + 1)];
}
