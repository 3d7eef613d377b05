import { KeyedMutex } from '@plaza/platform';
import { type Connection, mongo } from 'mongoose';
import { isFerretDbConnection } from './ferretdb-detection';

/**
 * How long a write found the database unreachable is believed: the writes of a request that
 * follow the failed one (its next group of ids, of journal entries) fail at once too.
 */
const UNREACHABLE_HOLD_MS = 200;

/**
 * The write commands of one service to its FerretDB database, one at a time in arrival order.
 *
 * Why: FerretDB runs each write as a SQLite transaction (`BEGIN IMMEDIATE`), and SQLite lets one
 * writer in at a time; the others sleep in its busy handler (1, 2, 5, 10 ... 100 ms) and try
 * again, so under load a write can lose the race again and again: the book service's writes took
 * up to a second at the 99th percentile while its reads took 50 ms (docs/PERFORMANCE.md,
 * "Writes"). Queued here they wait their turn instead, and nothing sleeps. Reads are not queued
 * (SQLite's WAL lets them run beside the writer), nor is anything on MongoDB.
 *
 * Only a single command goes through `run`, never a step that issues another write (that would
 * wait for itself).
 */
export class DatabaseWrites {
  private readonly queue = new KeyedMutex();
  private ferretDb?: Promise<boolean>;
  /** Writes numbered as they come, and the database found unreachable by a write: the last number then given, and until when to believe it. */
  private arrivals = 0;
  private unreachable?: { upTo: number; until: number; error: unknown };

  constructor(private readonly connection: Connection | undefined, private readonly unreachableHoldMs = UNREACHABLE_HOLD_MS) {}

  /**
   * Runs `write` when the writes that came before it are done. When one fails because the database
   * cannot be reached, those already waiting, and those that come within UNREACHABLE_HOLD_MS, fail
   * at once with its error rather than each waiting out its own timeout in turn (and landing, long
   * after their callers gave up, once it is back).
   */
  async run<T>(write: () => Promise<T>): Promise<T> {
    if (!(await this.queued())) return write();
    const arrival = ++this.arrivals;
    return this.queue.run('', async () => {
      const down = this.unreachable;
      if (down && (arrival <= down.upTo || Date.now() < down.until)) throw down.error;
      try {
        return await write();
      } catch (err) {
        if (err instanceof mongo.MongoNetworkError || err instanceof mongo.MongoServerSelectionError) {
          this.unreachable = { upTo: this.arrivals, until: Date.now() + this.unreachableHoldMs, error: err };
        }
        throw err;
      }
    });
  }

  /** Whether writes queue: the database is FerretDB (unknown until connected: not queued then). */
  private async queued(): Promise<boolean> {
    if (!this.connection) return false;
    this.ferretDb ??= isFerretDbConnection(this.connection).catch(() => {
      this.ferretDb = undefined;
      return false;
    });
    return this.ferretDb;
  }
}

const byConnection = new WeakMap<Connection, DatabaseWrites>();

/** The write queue of the database behind `connection`, shared by every writer of this process. */
export function databaseWrites(connection: Connection | undefined): DatabaseWrites {
  if (!connection) return new DatabaseWrites(undefined);
  let writes = byConnection.get(connection);
  if (!writes) byConnection.set(connection, (writes = new DatabaseWrites(connection)));
  return writes;
}
