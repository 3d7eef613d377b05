import { IsInt, Max, Min } from 'class-validator';

/** Offset paging as the gateway validated it (start >= 0, 0 <= count <= the endpoint's maximum). */
export class PageRequest {
  @IsInt() @Min(0) start = 0;
  @IsInt() @Min(0) @Max(1000) count = 20;
}

/** A list envelope: `{start, count, total, <key>: [...]}` where `count` is the number returned. */
export type ListEnvelope<K extends string, T> = { start: number; count: number; total: number } & Record<K, T[]>;

export function envelope<K extends string, T>(key: K, start: number, total: number, items: T[]): ListEnvelope<K, T> {
  return { start, count: items.length, total, [key]: items } as ListEnvelope<K, T>;
}
