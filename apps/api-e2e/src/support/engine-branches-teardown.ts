import type { Config } from '@jest/types';
import type { Stack } from '@plaza/stack';
import { checkEngineBranches } from './engine-branches';
import globalTeardown from './global-teardown';

/**
 * Global teardown of the shared-stack runs: checks, before the stack stops, that every engine
 * branch ran in this run's mode (engine-branches.ts), then stops the stack as global-teardown.ts
 * does. The mode is the one the services ran with: DATABASE_MODE, or `local` under `auto` (the
 * tests' engine is FerretDB).
 */
export default async function engineBranchesTeardown(globalConfig: Config.GlobalConfig): Promise<void> {
  const stack = (globalThis as Record<string, unknown>).__PLAZA_STACK__ as Stack | undefined;
  const mode = process.env.DATABASE_MODE === 'mongodb' ? 'mongodb' : 'local';
  try {
    if (stack) await checkEngineBranches(stack, mode, globalConfig, (line) => process.stdout.write(`${line}\n`));
  } finally {
    await globalTeardown();
  }
}
