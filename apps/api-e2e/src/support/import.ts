import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stackInfo } from './stack-info';

const IMPORTER = join(__dirname, '..', '..', '..', 'importer', 'dist', 'main.js');
const FIXTURES = join(__dirname, '..', '..', 'fixtures');

/** The first record of `kind` in a fixture file (apps/api-e2e/fixtures), to copy with ids of a suite's own. */
export function fixtureRecord(file: string, kind: string): Record<string, unknown> {
  for (const line of readFileSync(join(FIXTURES, file), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const record = JSON.parse(line) as Record<string, unknown>;
    if (record.kind === kind) return record;
  }
  throw new Error(`no ${kind} in ${file}`);
}

export interface ImportRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout then stderr: the counts per kind, then the bad lines. */
  output: string;
}

/** Runs the real importer (`npm run import -- FILE`) on a file, as an operator would; the shared test stack unless `natsUrl` names another. */
export function importFile(file: string, natsUrl = stackInfo().natsUrl): ImportRun {
  const result = spawnSync(process.execPath, [IMPORTER, file], { env: { ...process.env, NATS_URL: natsUrl }, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, output: `${result.stdout}${result.stderr}` };
}

/** Writes the records (objects, or raw lines as strings) to a file of their own and imports it. */
export function importRecords(records: Array<object | string>): ImportRun {
  const file = join(mkdtempSync(join(tmpdir(), 'plaza-import-')), 'records.ndjson');
  writeFileSync(file, `${records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`);
  return importFile(file);
}
