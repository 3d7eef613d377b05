import {
  CHANGE_DUPLICATE_WINDOW_MS, CHANGE_RETENTION_DAYS, CHANGE_STREAM, CHANGE_SUBJECT_PREFIX, ChangeEntry, ChangeKind, ChangeOp, changeSubject,
} from '@plaza/contracts';
import { formatTimestamp, KeyedMutex } from '@plaza/platform';
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Connection } from 'mongoose';
import { DiscardPolicy, JetStreamClient, JetStreamManager, NatsConnection, nanos, RetentionPolicy, StorageType } from 'nats';
import { DatabaseEngine } from '../mongo/database-engine';

/**
 * One catalogue record as the feed last published it, with the change in flight if any. The
 * `pending` part is the outbox: written before the record's write, cleared after the publish
 * was acknowledged, and published again by the sweep (under the same message id, which
 * JetStream stores once) when a process died in between.
 */
interface FeedStateDocument {
  /** `<kind>:<id>` */
  _id: string;
  /** Fingerprint of the content last published; null: unknown, so the next write publishes. */
  hash: string | null;
  pending?: { msg_id: string; kind: ChangeKind; id: string; op: ChangeOp; at: string; hash: string | null; owner: string; created: Date };
}

export interface ChangeFeedOptions {
  timeZone: string;
  now: () => Date;
  /** Where several instances may write (a replica set), another owner's pending change is swept only after this. */
  graceMs?: number;
  warn: (message: string, detail: object) => void;
  /**
   * Drops the gateways' cached answers of the record, on the same connection and before the
   * change is published: an app that reads the change and then the record gets the new record.
   */
  invalidate?: (kind: ChangeKind, id: string) => void;
}

/** Content as stable text: keys sorted, so the same record always has the same fingerprint. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const contentHash = (content: unknown) => createHash('sha256').update(stable(content)).digest('base64url');

/** The stream every publishing service makes sure of at start (the first one creates it; the same config again is no change). */
export function changeStreamConfig() {
  return {
    name: CHANGE_STREAM,
    subjects: [`${CHANGE_SUBJECT_PREFIX}.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: nanos(CHANGE_RETENTION_DAYS * 86_400_000),
    duplicate_window: nanos(CHANGE_DUPLICATE_WINDOW_MS),
    allow_direct: true,
    num_replicas: 1,
  };
}

/**
 * Publishes a service's catalogue changes to the `CHANGES` stream (docs/api/changes.md,
 * docs/RELIABILITY.md "Change feed"). `record` wraps the write of one record: it compares the
 * record's content with what was last published (a re-import of the same record publishes
 * nothing), writes the change to its outbox, runs the write, publishes with the outbox entry's
 * id as `Nats-Msg-Id` and clears the entry. A crash anywhere in between leaves the entry; the
 * sweep (at start, before the service is ready, and every minute) publishes it under the same
 * id, so JetStream stores it once whether or not the first publish got through.
 */
export class ChangeFeed {
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly inFlight = new Set<string>();
  /** One write of a record at a time: two imports of one id must not both read "nothing published yet". */
  private readonly lock = new KeyedMutex();
  private js?: JetStreamClient;
  private sweeping?: Promise<number>;
  private singleInstance?: Promise<boolean>;

  constructor(
    private readonly connection: Connection,
    private readonly nats: NatsConnection,
    private readonly options: ChangeFeedOptions,
    readonly collectionName = 'change_feed',
    private readonly engine?: DatabaseEngine,
  ) {}

  private states() {
    return this.connection.collection<FeedStateDocument>(this.collectionName);
  }

  /**
   * The state whose outbox entry still holds the change `msgId`: `{_id, pending.msg_id}` on
   * MongoDB, where another replica may have replaced the entry since; `{_id}` alone on the local
   * engine (one instance), where the key's lock is the guard and FerretDB would scan the whole
   * collection for a filter beyond `_id` (docs/ENGINES.md), on every record of an import.
   */
  private async holding(key: string, msgId: string): Promise<Record<string, unknown>> {
    const exact = { _id: key, 'pending.msg_id': msgId };
    if (!this.engine) return exact;
    return this.engine.run('change-feed.clear', { mongodb: () => exact, local: () => ({ _id: key }) });
  }

  /** Makes sure the stream exists (the first service to start creates it). */
  async start(): Promise<void> {
    const jsm: JetStreamManager = await this.nats.jetstreamManager();
    try {
      await jsm.streams.info(CHANGE_STREAM);
    } catch (err) {
      if (!/not found/i.test((err as Error).message)) throw err;
      await jsm.streams.add(changeStreamConfig());
    }
    this.js = this.nats.jetstream();
  }

  /**
   * Runs `write` for one record of `kind`; publishes `create` (nothing published before) or
   * `update` when `content` differs from what was last published. `content` undefined: the
   * write changed the record in a way its content does not show (a series renamed in a book):
   * always published, and the next write of the record publishes again.
   */
  async record<T>(kind: ChangeKind, id: string, content: unknown, write: () => Promise<T>): Promise<T> {
    const key = `${kind}:${id}`;
    return this.lock.run(key, async () => {
      const state = await this.states().findOne({ _id: key });
      const hash = content === undefined ? null : contentHash(content);
      if (hash !== null && state?.hash === hash && !state.pending) return write();
      const op: ChangeOp = state ? 'update' : 'create';
      return this.publishAround(key, kind, id, op, hash, write);
    });
  }

  /** A record removed: published as `delete` once `write` has succeeded. */
  async remove<T>(kind: ChangeKind, id: string, write: () => Promise<T>): Promise<T> {
    const key = `${kind}:${id}`;
    return this.lock.run(key, () => this.publishAround(key, kind, id, 'delete', null, write));
  }

  private async publishAround<T>(key: string, kind: ChangeKind, id: string, op: ChangeOp, hash: string | null, write: () => Promise<T>): Promise<T> {
    const msgId = randomBytes(12).toString('hex');
    const pending = { msg_id: msgId, kind, id, op, at: formatTimestamp(this.options.now(), this.options.timeZone), hash, owner: this.owner, created: this.options.now() };
    this.inFlight.add(key);
    try {
      // the outbox entry first: from here a crash leaves the change for the sweep
      await this.states().updateOne({ _id: key }, { $set: { pending }, $setOnInsert: { hash: null } }, { upsert: true });
      let result: T;
      try {
        result = await write();
      } catch (err) {
        // refused: nothing to publish. A record never published is forgotten (its next write is a create);
        // one published before may have changed in part, so its next write publishes again
        const stale = await this.holding(key, msgId);
        await (op === 'create' ? this.states().deleteOne(stale) : this.states().updateOne(stale, { $unset: { pending: 1 }, $set: { hash: null } })).catch(() => undefined);
        throw err;
      }
      try {
        await this.publish(pending);
        await this.states().updateOne(await this.holding(key, msgId), { $unset: { pending: 1 }, $set: { hash } });
      } catch (err) {
        // stored but not confirmed: the sweep publishes it (the write itself succeeded)
        this.options.warn('change not published yet; the sweep will', { key, err: (err as Error).message });
      }
      return result;
    } finally {
      this.inFlight.delete(key);
    }
  }

  private async publish(p: NonNullable<FeedStateDocument['pending']>): Promise<void> {
    if (!this.js) throw new Error('change feed not started');
    this.options.invalidate?.(p.kind, p.id);
    const entry: ChangeEntry = { kind: p.kind, id: p.id, op: p.op, at: p.at };
    await this.js.publish(changeSubject(p.kind), JSON.stringify(entry), { msgID: p.msg_id, expect: { streamName: CHANGE_STREAM } });
  }

  /** Publishes the changes a process left unconfirmed; resolves with how many it published. */
  sweep(): Promise<number> {
    if (!this.sweeping) this.sweeping = this.sweepOnce().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<number> {
    if (!this.js) await this.start();
    const single = await this.isSingleInstance();
    const now = this.options.now().getTime();
    const grace = this.options.graceMs ?? 120_000;
    let published = 0;
    for (const state of await this.states().find({ pending: { $exists: true } }).toArray()) {
      const p = state.pending;
      if (!p) continue;
      if (this.inFlight.has(state._id)) continue;
      if (p.owner !== this.owner && !single && now - new Date(p.created).getTime() < grace) continue;
      // under the key's lock, as a write: a write of the record meanwhile would otherwise see its entry cleared here
      await this.lock.run(state._id, async () => {
        if (this.inFlight.has(state._id)) return;
        await this.publish(p);
        // the write may or may not have happened before the crash: the next write of the record publishes again
        await this.states().updateOne(await this.holding(state._id, p.msg_id), { $unset: { pending: 1 }, $set: { hash: null } });
        published++;
      });
    }
    return published;
  }

  private isSingleInstance(): Promise<boolean> {
    if (!this.singleInstance) {
      this.singleInstance = (async () => {
        const db = this.connection.db;
        if (!db) throw new Error('database not connected yet');
        const hello = await db.admin().command({ hello: 1 });
        return !hello.setName && hello.msg !== 'isdbgrid';
      })();
      this.singleInstance.catch(() => (this.singleInstance = undefined));
    }
    return this.singleInstance;
  }
}
