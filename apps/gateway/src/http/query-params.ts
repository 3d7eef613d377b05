import { ApiError, PageRequest } from '@plaza/contracts';
import type { FastifyRequest } from 'fastify';
import type { Paging } from '../endpoints/endpoint-table';

export const CALLBACK = /^[A-Za-z0-9_]{1,50}$/;
/**
 * Any non-negative integer is a valid `start` or `count` (docs/api/README.md); larger values
 * than this are read as this (a `count` is then cut to the endpoint's maximum, a `start` is past
 * the end of every list).
 */
export const MAX_PAGING_VALUE = 999_999_999;

export type CallbackParam = { kind: 'none' } | { kind: 'valid'; name: string } | { kind: 'invalid' };

/** `callback`: 1-50 of `[A-Za-z0-9_]`; an empty or other value is 400/1015 (docs/api/README.md). */
export function readCallback(request: FastifyRequest): CallbackParam {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || !Object.prototype.hasOwnProperty.call(query, 'callback')) return { kind: 'none' };
  const value = query.callback;
  return typeof value === 'string' && CALLBACK.test(value) ? { kind: 'valid', name: value } : { kind: 'invalid' };
}

function nonNegativeInt(value: unknown, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^[0-9]+$/.test(value)) throw new ApiError('invalid_args', `${name} must be a non-negative integer`);
  return Math.min(Number(value), MAX_PAGING_VALUE);
}

/** start/count per the endpoint's rule: invalid → 400/1016, over-large count cut to the maximum. */
export function readPaging(request: FastifyRequest, paging: Paging): PageRequest {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const start = nonNegativeInt(query.start, 'start') ?? 0;
  const count = nonNegativeInt(query.count, 'count') ?? paging.defaultCount;
  return { start, count: Math.min(count, paging.maxCount) };
}

/** `fields`: comma-separated names; empty or `all` means everything (docs/api/README.md). */
export function readFields(request: FastifyRequest): Set<string> | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.fields;
  if (typeof value !== 'string') return undefined;
  const names = value.split(',').map((n) => n.trim()).filter(Boolean);
  if (names.length === 0 || names.includes('all')) return undefined;
  return new Set(names);
}
