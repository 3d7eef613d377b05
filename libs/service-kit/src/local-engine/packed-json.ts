import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * A document held in memory as its JSON text deflated: a few times smaller than the objects it
 * decodes to, for records a process holds many of and reads one at a time (docs/PERFORMANCE.md,
 * "Memory").
 *
 * zlib's synchronous calls return a view of a 16 KiB output chunk: held as it comes, every
 * document would keep a whole chunk alive, about ten times its packed size. The packed bytes are
 * copied out to a buffer of their own length (small ones share Node's buffer pool).
 */
export function packJson(value: unknown): Buffer {
  return Buffer.from(deflateRawSync(JSON.stringify(value), { level: 1 }));
}

export function unpackJson<T>(packed: Buffer): T {
  return JSON.parse(inflateRawSync(packed).toString()) as T;
}
