import { natsInboxPrefix } from '@plaza/contracts';
import type { NatsUser } from '@plaza/stack';
import { existsSync, readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'nats';

export interface StackInfo {
  baseUrl: string;
  /** With the importer's NATS credentials in it (what the importer is given). */
  natsUrl: string;
  /** The NATS address without credentials. */
  natsServerUrl: string;
  /** Each NATS user's name and password (tools/stack/src/nats-auth.ts). */
  natsUsers: Record<NatsUser, { user: string; password: string }>;
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

/**
 * nats.js options to connect to the shared stack's NATS as one of its users: a test that talks to
 * NATS directly does so with the credentials of the process it stands in for, and is allowed
 * what that process is allowed (docs/DEVELOPING.md, "NATS permissions").
 */
export function natsOptionsAs(user: NatsUser): ConnectionOptions {
  const info = stackInfo();
  const { user: name, password } = info.natsUsers[user];
  // as the apps do: each user reads replies in its own inbox only (natsInboxPrefix)
  return { servers: info.natsServerUrl, user: name, pass: password, inboxPrefix: natsInboxPrefix(name) };
}
