import { Stack, StackOptions } from '@plaza/stack';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_ENV, runImporter } from './global-setup';

/**
 * A stack of its own (engines, services, gateway) with the shared stack's settings, `options.env`
 * on top, and the platform fixture loaded: for suites that break a stack or load it hard.
 */
export async function startPrivateStack(options: Partial<StackOptions> = {}): Promise<Stack> {
  const stack = await Stack.start({
    ...options,
    dataDir: options.dataDir ?? mkdtempSync(join(tmpdir(), 'plaza-private-')),
    env: { ...E2E_ENV, ...options.env },
  });
  runImporter(stack, join(__dirname, '..', '..', 'fixtures', 'platform.ndjson'));
  return stack;
}

export async function stopPrivateStack(stack: Stack | undefined): Promise<void> {
  if (!stack) return;
  await stack.stop();
  if (!process.env.KEEP_E2E_DATA) rmSync(stack.options.dataDir, { recursive: true, force: true });
}
