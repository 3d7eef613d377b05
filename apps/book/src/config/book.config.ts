import { ServiceConfig } from '@plaza/platform';
import { Transform } from 'class-transformer';
import { IsInt, IsString, Max, Min, MinLength } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => Number(value);

/** Configuration of the book service (validated at start-up). */
export class BookConfig extends ServiceConfig {
  /** HMAC key for the signed addresses of private annotations' pictures; the gateway verifies with the same key. */
  @IsString() @MinLength(16, { message: 'PICTURE_SIGNING_KEY must be at least 16 characters' })
  PICTURE_SIGNING_KEY!: string;

  /** How long a signed picture address stays valid (it is rounded up to the hour). */
  @Transform(toInt) @IsInt() @Min(60) @Max(7 * 86400)
  PICTURE_URL_TTL_SECONDS = 3600;

  /** How often pictures that were uploaded but never accepted into an annotation are removed. */
  @Transform(toInt) @IsInt() @Min(1000)
  PICTURE_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

  /** A staged picture older than this belongs to a write that failed midway. */
  @Transform(toInt) @IsInt() @Min(60_000)
  PICTURE_STAGED_MAX_AGE_MS = 30 * 60 * 1000;
}
