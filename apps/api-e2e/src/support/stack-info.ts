import { existsSync, readFileSync } from 'node:fs';

export interface StackInfo {
  baseUrl: string;
  natsUrl: string;
  mongoUrl: string;
  dataDir: string;
  pictureSigningKey: string;
  versions: Record<string, string>;
}

/** Set by global setup for this run's workers, so concurrent runs never read each other's stack. */
export const STACK_INFO_ENV = 'PLAZA_E2E_STACK_FILE';

let cached: StackInfo | undefined;

/** Where the stack started by global setup listens (written by global-setup.ts). */
export function stackInfo(): StackInfo {
  if (!cached) {
    const file = process.env[STACK_INFO_ENV];
    if (!file || !existsSync(file)) throw new Error('the e2e stack is not running (global setup did not run)');
    cached = JSON.parse(readFileSync(file, 'utf8')) as StackInfo;
  }
  return cached;
}
