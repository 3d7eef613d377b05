import { IsArray, IsOptional, IsString } from 'class-validator';
import { defineEvent } from '../messaging/define-message';

export class CacheInvalidation {
  /** Response-cache tags to drop, for example `book:123` or `movie:subject:42`. */
  @IsOptional() @IsArray() @IsString({ each: true }) tags?: string[];
  /** Drop every cached response of these areas (after an import, say). */
  @IsOptional() @IsArray() @IsString({ each: true }) areas?: string[];
}

/** Published by a service after a write or an import, before it replies; every gateway replica listens. */
export const CACHE_INVALIDATED = defineEvent('cache.v1.invalidated', CacheInvalidation);
