import type { Stack } from '@plaza/stack';
import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const stack = (globalThis as Record<string, unknown>).__PLAZA_STACK__ as Stack | undefined;
  if (!stack) return;
  await stack.stop();
  const unclean = [...stack.apps.entries()].filter(([, p]) => p.lastExitCode !== 0).map(([n, p]) => `${n}=${p.lastExitCode}`);
  if (unclean.length > 0) process.stdout.write(`[e2e] processes that did not exit 0 on SIGTERM: ${unclean.join(', ')}\n`);
  if (!process.env.KEEP_E2E_DATA) rmSync(stack.options.dataDir, { recursive: true, force: true });
}
