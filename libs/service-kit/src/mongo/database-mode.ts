import { loadConfig } from '@plaza/platform';
import { IsIn } from 'class-validator';

/**
 * Which code path the repositories take where the two engines need different ones
 * (docs/ENGINES.md lists each such place):
 * - `mongodb`: the path production runs — the database's indexes answer lists and searches,
 *   replaces are compare-and-swaps on `rev`. Also usable against the local engine, which is how
 *   `npm test` runs this path (`e2e-mongodb`), at the local engine's speed.
 * - `local`: the local engine's path — searches and a user's lists from in-memory read models,
 *   replaces guarded by the service's own per-document lock (one instance per service).
 * - `auto` (the default): `local` when the database is FerretDB, `mongodb` otherwise.
 */
export type DatabaseMode = 'auto' | 'mongodb' | 'local';
/** The path actually taken. */
export type EngineBranch = Exclude<DatabaseMode, 'auto'>;

/** The database settings every area service validates at start-up, beside its own configuration. */
export class DatabaseSettings {
  @IsIn(['auto', 'mongodb', 'local'], { message: 'DATABASE_MODE must be auto, mongodb or local' })
  DATABASE_MODE: DatabaseMode = 'auto';
}

/** The validated settings (throws ConfigError with the problem when DATABASE_MODE is wrong). */
export function loadDatabaseSettings(env: NodeJS.ProcessEnv = process.env): DatabaseSettings {
  return loadConfig(DatabaseSettings, env);
}
