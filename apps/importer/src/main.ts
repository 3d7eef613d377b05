import { runImport } from './run-import';

/** `npm run import -- FILE`: see runImport. */
void runImport({ file: process.argv[2], env: process.env, stdout: process.stdout, stderr: process.stderr })
  .catch((err: unknown) => {
    process.stderr.write(`import failed: ${(err as Error).stack ?? String(err)}\n`);
    return 2;
  })
  .then((code) => process.exit(code));
