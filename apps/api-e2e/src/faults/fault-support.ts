import { Stack, StackOptions } from '@plaza/stack';
import { PASSWORD } from '../support/fixtures';
import { api, ApiResponse, RequestOptions } from '../support/http';
import { startPrivateStack } from '../support/private-stack';

export { stopPrivateStack } from '../support/private-stack';

/** Short timeouts, so a dead service or database is answered for within seconds. */
const FAULT_TIMEOUTS = { REQUEST_TIMEOUT_MS: '2000', MONGO_TIMEOUT_MS: '1500' };

/** A stack of its own for a fault test (it will be broken on purpose). */
export function startFaultStack(options: Partial<StackOptions> = {}): Promise<Stack> {
  return startPrivateStack({ ...options, env: { ...FAULT_TIMEOUTS, ...options.env } });
}

export interface TimedResponse extends ApiResponse {
  ms: number;
}

export async function timed(stack: Stack, method: string, path: string, options: RequestOptions = {}): Promise<TimedResponse> {
  const started = Date.now();
  try {
    const res = await api(method, path, { ...options, baseUrl: stack.baseUrl });
    return { ...res, ms: Date.now() - started };
  } catch (err) {
    // a connection refused or reset is also an answer, and must come quickly
    return { status: 0, headers: new Headers(), body: { error: (err as Error).message }, text: '', ms: Date.now() - started };
  }
}

export const passwordGrantRequest = (username = 'alice') => ({
  form: { grant_type: 'password', client_id: 'test-premium', client_secret: 'test-premium-secret', username, password: PASSWORD },
});

export const refreshRequest = (refreshToken: string) => ({
  form: { grant_type: 'refresh_token', client_id: 'test-premium', client_secret: 'test-premium-secret', refresh_token: refreshToken },
});

export async function until(description: string, condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await condition().catch(() => false)) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${description}`);
}

export async function readyStatus(stack: Stack): Promise<{ status: number; checks: Record<string, string> }> {
  const res = await timed(stack, 'GET', '/ready');
  return { status: res.status, checks: res.body?.checks ?? {} };
}

/** Counts of statuses, e.g. `{"200": 12, "503": 8}`. */
export function statusCounts(answers: Array<{ status: number }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

/** One line of what a fault test measured, for docs/RELIABILITY.md. */
export function report(name: string, facts: Record<string, unknown>): void {
  process.stdout.write(`[faults] ${name}: ${JSON.stringify(facts)}\n`);
}
