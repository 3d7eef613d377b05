import 'reflect-metadata';
import { runReconcile } from './run-reconcile';

/** `npm run reconcile [-- --dry-run] [--service note,event,book] [--json]`: see runReconcile. */
void runReconcile({ args: process.argv.slice(2), env: process.env, stdout: process.stdout, stderr: process.stderr })
  .catch((err: unknown) => {
    process.stderr.write(`reconcile failed: ${(err as Error).stack ?? String(err)}\n`);
    return 2;
  })
  .then((code) => process.exit(code));
