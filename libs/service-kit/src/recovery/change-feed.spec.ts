import { ChangeEntry } from '@plaza/contracts';
import type { Connection } from 'mongoose';
import type { NatsConnection } from 'nats';
import { ChangeFeed } from './change-feed';

type Doc = Record<string, unknown> & { _id: string };

/** Just what ChangeFeed asks of a collection: by `_id`, with `pending.msg_id` guards and `$set`/`$unset`/`$setOnInsert`. */
class MemoryCollection {
  readonly docs = new Map<string, Doc>();
  failUpdates = false;

  private matches(doc: Doc, filter: Record<string, unknown>): boolean {
    return Object.entries(filter).every(([key, want]) => {
      if (key === 'pending') return (doc.pending !== undefined) === (want as { $exists: boolean }).$exists;
      if (key === 'pending.msg_id') return (doc.pending as { msg_id?: string } | undefined)?.msg_id === want;
      return doc[key] === want;
    });
  }

  async findOne(filter: Record<string, unknown>) {
    return [...this.docs.values()].find((d) => this.matches(d, filter)) ?? null;
  }

  find(filter: Record<string, unknown>) {
    return { toArray: async () => [...this.docs.values()].filter((d) => this.matches(d, filter)).map((d) => structuredClone(d)) };
  }

  async updateOne(filter: Record<string, unknown>, update: { $set?: object; $unset?: object; $setOnInsert?: object }, options?: { upsert?: boolean }) {
    if (this.failUpdates) throw new Error('database gone');
    let doc = await this.findOne(filter);
    if (!doc) {
      if (!options?.upsert) return { matchedCount: 0 };
      doc = { _id: filter._id as string, ...update.$setOnInsert };
      this.docs.set(doc._id, doc);
    }
    Object.assign(doc, structuredClone(update.$set ?? {}));
    for (const key of Object.keys(update.$unset ?? {})) delete doc[key];
    return { matchedCount: 1 };
  }

  async deleteOne(filter: Record<string, unknown>) {
    const doc = await this.findOne(filter);
    if (doc) this.docs.delete(doc._id);
  }
}

/** A stream with JetStream's duplicate detection by `Nats-Msg-Id`. */
class MemoryStream {
  readonly stored: ChangeEntry[] = [];
  private readonly ids = new Set<string>();
  down = false;
  readonly order: string[] = [];

  publish = async (_subject: string, data: string, options: { msgID: string }) => {
    if (this.down) throw new Error('no responders');
    this.order.push('publish');
    if (this.ids.has(options.msgID)) return { duplicate: true };
    this.ids.add(options.msgID);
    this.stored.push(JSON.parse(data) as ChangeEntry);
    return { duplicate: false };
  };
}

function setup() {
  const states = new MemoryCollection();
  const stream = new MemoryStream();
  const connection = {
    collection: () => states,
    db: { admin: () => ({ command: async () => ({ isWritablePrimary: true }) }) },
  } as unknown as Connection;
  const nats = {
    jetstreamManager: async () => ({ streams: { info: async () => ({}), add: async () => ({}) } }),
    jetstream: () => ({ publish: (...args: Parameters<MemoryStream['publish']>) => stream.publish(...args) }),
  } as unknown as NatsConnection;
  const invalidated: string[] = [];
  const feed = (owner?: string) =>
    new ChangeFeed(connection, nats, {
      timeZone: 'UTC',
      now: () => new Date('2026-11-25T10:00:00Z'),
      warn: () => undefined,
      invalidate: (kind, id) => {
        invalidated.push(`${kind}:${id}`);
        stream.order.push('invalidate');
      },
    }, owner);
  return { states, stream, feed, invalidated };
}

describe('ChangeFeed (docs/RELIABILITY.md, "Change feed")', () => {
  it('publishes a create, nothing for the same content again, an update for new content; the cache is dropped first', async () => {
    const { stream, feed } = setup();
    const f = feed();
    await f.start();
    const write = jest.fn(async () => 'written');
    await expect(f.record('book', '1', { title: 'A' }, write)).resolves.toBe('written');
    await f.record('book', '1', { title: 'A' }, write);
    await f.record('book', '1', { title: 'B' }, write);
    expect(write).toHaveBeenCalledTimes(3);
    expect(stream.stored).toEqual([
      { kind: 'book', id: '1', op: 'create', at: '2026-11-25 10:00:00' },
      { kind: 'book', id: '1', op: 'update', at: '2026-11-25 10:00:00' },
    ]);
    expect(stream.order).toEqual(['invalidate', 'publish', 'invalidate', 'publish']);
  });

  it('publishes nothing for a refused write; the record\'s first stored write is then its create', async () => {
    const { stream, feed } = setup();
    const f = feed();
    await f.start();
    await expect(f.record('movie', '7', { title: 'X' }, async () => { throw new Error('bad record'); })).rejects.toThrow('bad record');
    expect(stream.stored).toEqual([]);
    await f.record('movie', '7', { title: 'X' }, async () => undefined);
    expect(stream.stored.map((c) => c.op)).toEqual(['create']);
  });

  it('a change whose publish failed (NATS away) is published by the sweep, once', async () => {
    const { stream, feed } = setup();
    const f = feed();
    await f.start();
    stream.down = true;
    await f.record('city', '9', { name: 'C' }, async () => undefined);
    expect(stream.stored).toEqual([]);
    stream.down = false;
    await expect(f.sweep()).resolves.toBe(1);
    await expect(f.sweep()).resolves.toBe(0);
    expect(stream.stored.map((c) => `${c.kind}:${c.id}:${c.op}`)).toEqual(['city:9:create']);
  });

  it('a change published but not confirmed before a crash is stored once: the sweep publishes it under the same message id', async () => {
    const { states, stream, feed } = setup();
    const crashed = feed();
    await crashed.start();
    // the publish goes through, then the database is lost before the outbox entry is cleared: the process dies
    const publish = stream.publish;
    stream.publish = async (...args) => {
      const result = await publish(...args);
      states.failUpdates = true;
      return result;
    };
    await crashed.record('event', '5', { title: 'E' }, async () => undefined);
    stream.publish = publish;
    states.failUpdates = false;
    expect(stream.stored).toHaveLength(1);
    // the restarted process (another owner) sweeps
    const restarted = feed();
    await expect(restarted.sweep()).resolves.toBe(1);
    expect(stream.stored).toEqual([{ kind: 'event', id: '5', op: 'create', at: '2026-11-25 10:00:00' }]);
    // its fingerprint was forgotten: the next write of the record publishes again (docs/RELIABILITY.md)
    await restarted.record('event', '5', { title: 'E' }, async () => undefined);
    expect(stream.stored.map((c) => c.op)).toEqual(['create', 'update']);
  });

  it('the sweep leaves alone the writes this process has in flight', async () => {
    const { stream, feed } = setup();
    const f = feed();
    await f.start();
    let release!: () => void;
    const inFlight = f.record('series', '3', { title: 'S' }, () => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((r) => setImmediate(r));
    await expect(f.sweep()).resolves.toBe(0);
    release();
    await inFlight;
    expect(stream.stored.map((c) => `${c.kind}:${c.op}`)).toEqual(['series:create']);
  });

  it('a renamed series changes its books: a write with no content is always published', async () => {
    const { stream, feed } = setup();
    const f = feed();
    await f.start();
    await f.record('book', '1', { title: 'A' }, async () => undefined);
    await f.record('book', '1', undefined, async () => undefined);
    await f.record('book', '1', { title: 'A' }, async () => undefined);
    expect(stream.stored.map((c) => c.op)).toEqual(['create', 'update', 'update']);
  });
});
