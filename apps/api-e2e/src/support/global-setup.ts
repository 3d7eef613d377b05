import { NATS_USERS, Stack } from '@plaza/stack';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CROWD_SIZE, crowd, PASSWORD } from './fixtures';
import { importFile } from './import';
import { STACK_INFO_ENV } from './stack-info';

/** Settings of the shared test stack: limits high enough that suites never throttle each other. */
export const E2E_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  // a cheaper hash keeps 200 test users quick to load; production keeps the default cost
  PASSWORD_HASH_COST: '12',
  RATE_LIMIT_ANON_PER_HOUR: '1000000',
  RATE_LIMIT_APIKEY_PER_HOUR: '1000000',
  RATE_LIMIT_MOVIE_BASIC_PER_MIN: '1000000',
  // suites share users and one client address; the fair shares are tested on stacks of their own
  RATE_LIMIT_USER_PER_MIN: '1000000',
  RATE_LIMIT_APP_PER_MIN: '1000000',
  RATE_LIMIT_AUTH_PER_MIN: '1000000',
  RATE_LIMIT_CONCURRENT_PER_CALLER: '1000000',
  MAX_CONCURRENT_PER_CALLER: '100000',
  LOG_LEVEL: process.env.LOG_LEVEL || 'info',
  BANNED_WORDS_FILE: join(__dirname, '..', '..', 'fixtures', 'banned-words.txt'),
};

/** Imports a file into `stack`, failing the setup if any line fails. */
export function runImporter(stack: Stack, file: string): void {
  const result = importFile(file, stack.natsUrl);
  if (result.status !== 0) throw new Error(`import of ${file} failed (${result.status}):\n${result.output}`);
}

export default async function globalSetup(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'plaza-e2e-'));
  const started = Date.now();
  const stack = await Stack.start({ dataDir, env: E2E_ENV, log: (line) => process.stdout.write(`[e2e] ${line}\n`) });
  (globalThis as Record<string, unknown>).__PLAZA_STACK__ = stack;

  const crowdFile = join(dataDir, 'crowd.ndjson');
  const crowdLines = Array.from({ length: CROWD_SIZE }, (_, i) => {
    const u = crowd(i + 1);
    return JSON.stringify({ kind: 'user', id: u.id, uid: u.uid, name: u.name, password: PASSWORD });
  });
  writeFileSync(crowdFile, `${crowdLines.join('\n')}\n`);

  const fixtures = join(__dirname, '..', '..', 'fixtures');
  const files = readdirSync(fixtures).filter((f) => f.endsWith('.ndjson')).sort((a, b) => (a === 'platform.ndjson' ? -1 : b === 'platform.ndjson' ? 1 : a.localeCompare(b)));
  for (const file of [...files.map((f) => join(fixtures, f)), crowdFile]) runImporter(stack, file);

  const stackFile = join(dataDir, 'stack.json');
  const secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
  writeFileSync(
    stackFile,
    JSON.stringify({
      baseUrl: stack.baseUrl,
      natsUrl: stack.natsUrl,
      natsServerUrl: stack.natsServerUrl,
      natsUsers: Object.fromEntries(NATS_USERS.map((user) => [user, stack.natsCredentials(user)])),
      mongoUrl: stack.mongoUrl,
      dataDir,
      pictureSigningKey: secrets.PICTURE_SIGNING_KEY,
      versions: stack.versions(),
    }, null, 2),
  );
  // workers are forked after global setup and inherit this
  process.env[STACK_INFO_ENV] = stackFile;
  process.stdout.write(`\n[e2e] stack ready at ${stack.baseUrl} in ${Date.now() - started} ms (${JSON.stringify(stack.versions())}); logs in ${dataDir}/logs\n`);
}
