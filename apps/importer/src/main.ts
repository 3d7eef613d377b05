import { connectNats, createLogger, ServiceBus } from '@plaza/platform';
import { existsSync } from 'node:fs';
import { importFile } from './import-file';

/**
 * `npm run import -- FILE` (CONTRACT.md section 6): prints a count per kind and every bad line
 * with its number; exits 1 if any line failed, 2 if the file or the services cannot be reached.
 */
async function main(): Promise<number> {
  const path = process.argv[2];
  if (!path || !existsSync(path)) {
    process.stderr.write(`usage: npm run import -- FILE.ndjson${path ? ` (no such file: ${path})` : ''}\n`);
    return 2;
  }
  const logger = createLogger('importer', process.env.LOG_LEVEL === 'debug' ? 'debug' : 'warn');
  const natsUrl = process.env.NATS_URL || 'nats://127.0.0.1:4222';
  let nats;
  try {
    nats = await connectNats(natsUrl, 'importer', logger);
  } catch (err) {
    process.stderr.write(`cannot reach NATS at ${natsUrl}: ${(err as Error).message}\n`);
    return 2;
  }
  try {
    const summary = await importFile(path, new ServiceBus(nats, 120_000));
    for (const [kind, count] of Object.entries(summary.loaded)) process.stdout.write(`${kind}\t${count}\n`);
    for (const p of summary.problems) process.stderr.write(`line ${p.line}: ${p.error}\n`);
    const total = Object.values(summary.loaded).reduce((a, b) => a + b, 0);
    process.stdout.write(`loaded ${total} records; ${summary.problems.length} failed\n`);
    return summary.problems.length > 0 ? 1 : 0;
  } catch (err) {
    process.stderr.write(`import failed: ${(err as Error).message}\n`);
    return 2;
  } finally {
    await nats.drain();
  }
}

void main().then((code) => process.exit(code));
