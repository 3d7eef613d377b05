import type { Connection } from 'mongoose';
import { ConfigError } from '@plaza/platform';
import { DatabaseEngine } from './database-engine';
import { loadDatabaseSettings } from './database-mode';
import { engineBranchRuns } from './engine-branch-runs';

/** A connection whose buildInfo says FerretDB or MongoDB. */
const connection = (ferret: boolean) =>
  ({ db: { admin: () => ({ command: async () => (ferret ? { ferretdbVersion: 'v1.24.0' } : { version: '7.0.0' }) }) } }) as unknown as Connection;

describe('DatabaseEngine', () => {
  it('takes the branch DATABASE_MODE names, or with auto the one of the engine found', async () => {
    expect(await new DatabaseEngine(connection(true), 'auto').branch()).toBe('local');
    expect(await new DatabaseEngine(connection(false), 'auto').branch()).toBe('mongodb');
    expect(await new DatabaseEngine(connection(true), 'mongodb').branch()).toBe('mongodb');
    expect(await new DatabaseEngine(connection(false), 'local').branch()).toBe('local');
    // the lease asks the engine itself, whatever the mode
    expect(await new DatabaseEngine(connection(true), 'mongodb').isFerretDb()).toBe(true);
  });

  it('runs the branch taken and counts it by name', async () => {
    const before = engineBranchRuns().get('test.step mongodb') ?? 0;
    const engine = DatabaseEngine.fixed('mongodb');
    expect(await engine.run('test.step', { mongodb: () => 'm', local: () => 'l' })).toBe('m');
    expect(await DatabaseEngine.fixed('local').run('test.step', { mongodb: () => 'm', local: async () => 'l' })).toBe('l');
    expect(engineBranchRuns().get('test.step mongodb')).toBe(before + 1);
    expect(engineBranchRuns().get('test.step local')).toBeGreaterThanOrEqual(1);
  });

  it('makes a replace a compare-and-swap on rev only on the MongoDB branch', async () => {
    expect(await DatabaseEngine.fixed('mongodb').versionFilter('test.replace', 'a', 3)).toEqual({ _id: 'a', rev: 3 });
    // version 0: stored as 0, or written before versions existed
    expect(await DatabaseEngine.fixed('mongodb').versionFilter('test.replace', 'a', undefined)).toEqual({ _id: 'a', rev: { $in: [0, null] } });
    expect(await DatabaseEngine.fixed('local').versionFilter('test.replace', 'a', 3)).toEqual({ _id: 'a' });
  });

  it('validates DATABASE_MODE with the other settings', () => {
    expect(loadDatabaseSettings({}).DATABASE_MODE).toBe('auto');
    expect(loadDatabaseSettings({ DATABASE_MODE: 'mongodb' }).DATABASE_MODE).toBe('mongodb');
    expect(() => loadDatabaseSettings({ DATABASE_MODE: 'ferret' })).toThrow(ConfigError);
    expect(() => loadDatabaseSettings({ DATABASE_MODE: 'ferret' })).toThrow('DATABASE_MODE must be auto, mongodb or local');
  });
});
