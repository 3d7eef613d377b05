import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StackInfo {
  baseUrl: string;
  natsUrl: string;
  mongoUrl: string;
  dataDir: string;
  pictureSigningKey: string;
  versions: Record<string, string>;
}

export const STACK_INFO_FILE = join(__dirname, '..', '..', '..', '..', 'tmp', 'e2e', 'stack.json');

let cached: StackInfo | undefined;

/** Where the stack started by global setup listens (written by global-setup.ts). */
export function stackInfo(): StackInfo {
  if (!cached) {
    if (!existsSync(STACK_INFO_FILE)) throw new Error('the e2e stack is not running (global setup did not run)');
    cached = JSON.parse(readFileSync(STACK_INFO_FILE, 'utf8')) as StackInfo;
  }
  return cached;
}
