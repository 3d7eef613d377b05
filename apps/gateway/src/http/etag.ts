import { hash } from 'node:crypto';

/**
 * A strong ETag of the exact bytes sent. `crypto.hash` is the one-shot form of createHash: no
 * Hash object or stream state per response (the same digest, about half the cost on small bodies).
 */
export function etagOf(payload: string | Buffer): string {
  return `"${hash('sha1', payload, 'base64url')}"`;
}

export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
