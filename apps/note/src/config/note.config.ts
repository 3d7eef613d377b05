import { ServiceConfig } from '@plaza/platform';
import { Transform } from 'class-transformer';
import { IsInt, IsString, Max, Min, MinLength } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => Number(value);

/** Configuration of the note service (validated at start-up). */
export class NoteConfig extends ServiceConfig {
  /** HMAC key of the signed addresses of friends-only and private note pictures; the gateway checks them with the same key. */
  @IsString() @MinLength(16, { message: 'PICTURE_SIGNING_KEY must be at least 16 characters' })
  PICTURE_SIGNING_KEY!: string;

  /** How long a signed picture address works (it is rounded up to the hour). */
  @Transform(toInt) @IsInt() @Min(60) @Max(7 * 86400) PICTURE_URL_TTL_SECONDS = 3600;

  /** Uploaded pictures no note accepted within this time are deleted (a write that died midway). */
  @Transform(toInt) @IsInt() @Min(60) STAGED_PICTURE_MAX_AGE_SECONDS = 3600;
}
