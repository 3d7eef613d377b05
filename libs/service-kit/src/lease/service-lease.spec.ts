import type { Connection } from 'mongoose';
import pino from 'pino';
import { LeaseRefusedError, leaseForLocalEngine, ServiceLease } from './service-lease';

/** A one-collection database with what the lease uses: findOne, insertOne (unique `_id`), updateOne, deleteOne by `_id` (+ instance). */
function fakeDatabase() {
  const docs = new Map<string, Record<string, unknown>>();
  const matches = (doc: Record<string, unknown> | undefined, filter: Record<string, unknown>) =>
    doc !== undefined && Object.entries(filter).every(([k, v]) => doc[k] === v);
  const collection = {
    findOne: async (filter: { _id: string }) => (docs.has(filter._id) ? { ...docs.get(filter._id) } : null),
    insertOne: async (doc: Record<string, unknown>) => {
      if (docs.has(doc._id as string)) throw Object.assign(new Error('E11000 duplicate key'), { code: 11000 });
      docs.set(doc._id as string, { ...doc });
    },
    updateOne: async (filter: Record<string, unknown>, update: { $set: Record<string, unknown> }) => {
      const doc = docs.get(filter._id as string);
      if (!matches(doc, filter)) return { matchedCount: 0 };
      Object.assign(doc!, update.$set);
      return { matchedCount: 1 };
    },
    deleteOne: async (filter: Record<string, unknown>) => {
      const found = matches(docs.get(filter._id as string), filter);
      if (found) docs.delete(filter._id as string);
      return { deletedCount: found ? 1 : 0 };
    },
  };
  return { connection: { collection: () => collection } as unknown as Connection, docs };
}

const logger = pino({ level: 'silent' });
const quick = { ttlMs: 300, renewMs: 50 };

describe('the local engine lease', () => {
  const leases: ServiceLease[] = [];
  afterEach(() => leases.splice(0).forEach((l) => l.stop()));
  const take = async (db: ReturnType<typeof fakeDatabase>, options = {}) => {
    const lease = await ServiceLease.acquire(db.connection, 'book', logger, () => undefined, { ...quick, ...options });
    leases.push(lease);
    return lease;
  };

  it('is taken when free, and refused to a second instance while the holder renews it', async () => {
    const db = fakeDatabase();
    await take(db);
    const started = Date.now();
    const second = ServiceLease.acquire(db.connection, 'book', logger, () => undefined, { ...quick, alive: () => true });
    await expect(second).rejects.toThrow(LeaseRefusedError);
    await expect(second).rejects.toThrow('another instance of book is running against this local-engine database');
    // it waited for the lease to expire before giving up
    expect(Date.now() - started).toBeGreaterThanOrEqual(quick.ttlMs);
  });

  it('is taken over once its holder stops renewing, and the old holder learns it lost it', async () => {
    const db = fakeDatabase();
    let lost = 0;
    const first = await ServiceLease.acquire(db.connection, 'book', logger, () => lost++, { ...quick, alive: () => true });
    leases.push(first);
    // stuck: no renewals for longer than the TTL
    const stuck = first as unknown as { timer: NodeJS.Timeout; renew: (onLost: () => void) => Promise<void> };
    clearInterval(stuck.timer);
    await take(db, { alive: () => true });
    // renewing again, it finds the lease in other hands and stops
    await stuck.renew(() => lost++);
    expect(lost).toBe(1);
  });

  it('is taken over at once from a holder of this machine whose process is gone', async () => {
    const db = fakeDatabase();
    const first = await take(db);
    first.stop();
    const started = Date.now();
    await take(db, { alive: () => false });
    expect(Date.now() - started).toBeLessThan(quick.ttlMs);
  });

  it('is not taken on MongoDB', async () => {
    const db = fakeDatabase();
    expect(await leaseForLocalEngine(async () => false, db.connection, 'book', logger, () => undefined, quick)).toBeUndefined();
    expect(db.docs.size).toBe(0);
  });
});
