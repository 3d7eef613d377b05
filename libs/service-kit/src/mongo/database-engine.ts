import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { DatabaseMode, EngineBranch, loadDatabaseSettings } from './database-mode';
import { databaseWrites } from './database-writes';
import { recordEngineBranch } from './engine-branch-runs';
import { isFerretDbConnection } from './ferretdb-detection';

/** Overrides DATABASE_MODE for one module (tests); by default the environment decides. */
export const DATABASE_MODE = Symbol('DATABASE_MODE');

export { isFerretDbConnection } from './ferretdb-detection';

/** The implementations of one engine-specific step, by branch. */
export interface BranchImplementations<T> {
  mongodb: () => T | Promise<T>;
  local: () => T | Promise<T>;
}

/**
 * Which branch the repositories take where the engines differ (DATABASE_MODE, database-mode.ts).
 *
 * FerretDB v1 (SQLite) uses an index only for a filter that is exactly `{_id}`: any other filter
 * decodes every document of the collection (a replace with `{_id, rev}`: 210 ms against 3 ms on the
 * 3000-book demo catalogue), and its updates are not atomic. So its branch answers searches and a
 * user's lists from in-memory read models and guards a replace with the service's per-document
 * lock (one instance per service, held by the lease), while the MongoDB branch queries the
 * database's indexes and makes each replace a compare-and-swap on `rev`.
 *
 * Every fork goes through `run`, which counts it by name (engine-branch-runs.ts), so the test runs
 * can prove that both branches of each ran.
 */
@Injectable()
export class DatabaseEngine {
  private readonly mode: DatabaseMode;
  private branchTaken?: Promise<EngineBranch>;
  private ferretDb?: Promise<boolean>;

  constructor(
    @InjectConnection() private readonly connection: Connection,
    @Optional() @Inject(DATABASE_MODE) mode?: DatabaseMode,
  ) {
    this.mode = mode ?? loadDatabaseSettings().DATABASE_MODE;
  }

  /** An engine that always takes `branch` (unit tests, the index-coverage specs). */
  static fixed(branch: EngineBranch): DatabaseEngine {
    return new DatabaseEngine(undefined as unknown as Connection, branch);
  }

  /** The branch taken: the setting, or with `auto` the one of the engine found. */
  branch(): Promise<EngineBranch> {
    if (this.mode !== 'auto') return Promise.resolve(this.mode);
    if (!this.branchTaken) {
      this.branchTaken = this.isFerretDb().then((ferret) => (ferret ? 'local' : 'mongodb'));
      this.branchTaken.catch(() => (this.branchTaken = undefined));
    }
    return this.branchTaken;
  }

  async isLocal(): Promise<boolean> {
    return (await this.branch()) === 'local';
  }

  /** Runs the branch's implementation of the step `name`, and counts it. */
  async run<T>(name: string, implementations: BranchImplementations<T>): Promise<T> {
    const branch = await this.branch();
    recordEngineBranch(name, branch);
    return implementations[branch]();
  }

  /** Runs one write command in the database's write queue (database-writes.ts: one at a time on FerretDB). */
  write<T>(command: () => Promise<T>): Promise<T> {
    return databaseWrites(this.connection).run(command);
  }

  /**
   * The filter of a replace or delete that must apply only to the version `rev` that was read:
   * the compare-and-swap on MongoDB (`{_id, rev}`; a missing `rev` is version 0 of a document
   * written before versions existed); `{_id}` alone on the local engine, where the caller's
   * per-document lock is the guard and a filter beyond `_id` would scan the collection.
   */
  versionFilter(name: string, id: string, rev: number | undefined): Promise<Record<string, unknown>> {
    return this.run(name, {
      mongodb: () => ({ _id: id, rev: rev ? rev : { $in: [0, null] } }),
      local: () => ({ _id: id }),
    });
  }

  /** Whether the database is FerretDB, whatever the mode (the lease, the local read models' preload). */
  isFerretDb(): Promise<boolean> {
    if (!this.ferretDb) {
      this.ferretDb = isFerretDbConnection(this.connection);
      this.ferretDb.catch(() => (this.ferretDb = undefined));
    }
    return this.ferretDb;
  }
}
