import type { Connection } from 'mongoose';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';

/**
 * One instance per service on the local engine. FerretDB v1 applies an update as a read, a change
 * and a write in separate transactions, so two instances of one service writing the same document
 * lose updates (docs/ENGINES.md, the probe table): the services guard such writes with a lock
 * inside their process, which only works while they are alone. On MongoDB, where writes are
 * compare-and-swaps and atomic operators, any number of instances run and no lease is taken.
 *
 * The lease is one document in the service's own database (`service_lease`, `_id` `lease`): what
 * must not be shared is the database, so two stacks never block each other and two instances of
 * one database always meet. Taking it is an insert, which is atomic on FerretDB as on MongoDB (the
 * unique `_id`); the holder renews it every RENEW_MS. A starting instance that finds it held waits
 * for it to go unrenewed for TTL_MS (the holder crashed, or is stuck) and then replaces it; while it
 * keeps being renewed, the start fails with a message saying why. A holder on this machine whose
 * process is gone is replaced at once (a crashed service restarted). A holder that finds its lease
 * taken over stops.
 */
export const LEASE_COLLECTION = 'service_lease';
const LEASE_ID = 'lease';
const TTL_MS = 10_000;
const RENEW_MS = 2_500;
const POLL_MS = 500;
const DUPLICATE_KEY = 11000;

export interface LeaseHolder {
  service: string;
  host: string;
  pid: number;
  /** This start of the process (a restarted process is another holder). */
  instance: string;
  since: string;
}

interface LeaseDocument extends LeaseHolder {
  _id: string;
  renewed: Date;
}

export class LeaseRefusedError extends Error {
  constructor(service: string, holder: LeaseHolder | undefined) {
    const who = holder ? `pid ${holder.pid} on ${holder.host}, running since ${holder.since}` : 'another process';
    super(
      `another instance of ${service} is running against this local-engine database (${who}). The local engine ` +
        '(FerretDB) runs one instance per service: its updates are not atomic, so a second instance would corrupt ' +
        'counters. Stop the other instance, or run several instances on MongoDB (docs/ENGINES.md, "Replicas").',
    );
    this.name = 'LeaseRefusedError';
  }
}

export interface LeaseOptions {
  ttlMs?: number;
  renewMs?: number;
  /** Whether a process of this machine is alive (tests replace it). */
  alive?: (pid: number) => boolean;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isDuplicateKey = (err: unknown) => (err as { code?: number })?.code === DUPLICATE_KEY;

export class ServiceLease {
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private readonly me: LeaseHolder;
  private readonly ttlMs: number;
  private readonly renewMs: number;
  private readonly alive: (pid: number) => boolean;

  private constructor(private readonly connection: Connection, service: string, private readonly logger: Logger, options: LeaseOptions) {
    this.me = { service, host: hostname(), pid: process.pid, instance: randomUUID(), since: new Date().toISOString() };
    this.ttlMs = options.ttlMs ?? TTL_MS;
    this.renewMs = options.renewMs ?? RENEW_MS;
    this.alive = options.alive ?? processAlive;
  }

  /**
   * Takes the service's lease, waiting at most one TTL for a holder to stop renewing it; rejects
   * with LeaseRefusedError while another live instance holds it. `onLost` runs if the lease is
   * later found in other hands (the process must then stop: it may no longer write).
   */
  static async acquire(connection: Connection, service: string, logger: Logger, onLost: () => void, options: LeaseOptions = {}): Promise<ServiceLease> {
    const lease = new ServiceLease(connection, service, logger, options);
    await lease.take();
    lease.timer = setInterval(() => void lease.renew(onLost), lease.renewMs);
    lease.timer.unref();
    return lease;
  }

  private get leases() {
    return this.connection.collection<LeaseDocument>(LEASE_COLLECTION);
  }

  private async take(): Promise<void> {
    const deadline = Date.now() + this.ttlMs + this.renewMs;
    // the holder is judged by whether it renews: the time of its renewals as this process sees them
    let seen: { renewed: number; at: number } | undefined;
    for (;;) {
      const current = await this.leases.findOne({ _id: LEASE_ID });
      if (!current) {
        if (await this.insert()) return;
        continue;
      }
      const renewed = new Date(current.renewed).getTime();
      if (!seen || seen.renewed !== renewed) seen = { renewed, at: Date.now() };
      const crashedHere = current.host === this.me.host && !this.alive(current.pid);
      const unrenewed = Date.now() - seen.at > this.ttlMs;
      if (crashedHere || unrenewed) {
        // replace it: of several starting instances, the one whose insert lands wins
        await this.leases.deleteOne({ _id: LEASE_ID });
        if (await this.insert()) return;
        continue;
      }
      if (Date.now() > deadline) throw new LeaseRefusedError(this.me.service, current);
      await sleep(POLL_MS);
    }
  }

  private async insert(): Promise<boolean> {
    try {
      await this.leases.insertOne({ _id: LEASE_ID, ...this.me, renewed: new Date() });
      this.logger.info({ lease: this.me }, 'took the local engine lease (one instance per service)');
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  private async renew(onLost: () => void): Promise<void> {
    if (this.stopped) return;
    try {
      const result = await this.leases.updateOne({ _id: LEASE_ID, instance: this.me.instance }, { $set: { renewed: new Date() } });
      if (result.matchedCount === 1 || this.stopped) return;
      // not ours any more: if nobody holds it (cleared by hand), take it back; else stop
      if (await this.insert()) return;
      const holder = await this.leases.findOne({ _id: LEASE_ID });
      this.logger.fatal({ holder }, 'the local engine lease was taken over by another instance; stopping');
      this.stop();
      onLost();
    } catch (err) {
      // the database is unreachable for now: the next renewal tries again
      this.logger.warn({ err: String(err) }, 'could not renew the local engine lease');
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
  }

  /** Gives the lease back (the next instance need not wait). */
  async release(): Promise<void> {
    this.stop();
    await this.leases.deleteOne({ _id: LEASE_ID, instance: this.me.instance }).catch(() => undefined);
  }
}

/**
 * Takes the lease when the database is the local engine, whatever DATABASE_MODE says (the mode
 * chooses code paths; the engine decides whether writes are atomic). Returns the lease (undefined
 * on MongoDB) or throws LeaseRefusedError.
 */
export async function leaseForLocalEngine(
  isLocalEngine: () => Promise<boolean>,
  connection: Connection,
  service: string,
  logger: Logger,
  onLost: () => void,
  options: LeaseOptions = {},
): Promise<ServiceLease | undefined> {
  for (;;) {
    try {
      if (!(await isLocalEngine())) return undefined;
      break;
    } catch {
      // the database is not reachable yet: the service waits for it anyway
      await sleep(POLL_MS);
    }
  }
  return ServiceLease.acquire(connection, service, logger, onLost, options);
}
