import { MAX_ACCESS_TOKEN_TTL_SECONDS, ServiceConfig } from '@plaza/platform';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => Number(value);

export class IdentityConfig extends ServiceConfig {
  /** Folder of Ed25519 private keys (`<kid>.pem`); every key's public half is published. */
  @IsString() JWT_KEYS_DIR = '/var/run/secrets/plaza/jwt';
  /** The key that signs new tokens; default: the last file name in sort order. */
  @IsOptional() @IsString() JWT_ACTIVE_KID?: string;

  @Transform(toInt) @IsInt() @Min(60) @Max(MAX_ACCESS_TOKEN_TTL_SECONDS) ACCESS_TOKEN_TTL = 3600;
  @Transform(toInt) @IsInt() @Min(1) @Max(365) REFRESH_TOKEN_TTL_DAYS = 30;
  @IsString() TOKEN_ISSUER = 'plaza-identity';
  @IsString() TOKEN_AUDIENCE = 'plaza-api';

  /** scrypt cost as log2(N); 15 = 32 MiB per hash. */
  @Transform(toInt) @IsInt() @Min(10) @Max(20) PASSWORD_HASH_COST = 15;

  /** Failed sign-ins before each further attempt is slowed, and before the account locks. */
  @Transform(toInt) @IsInt() @Min(1) LOGIN_SLOWDOWN_AFTER = 3;
  @Transform(toInt) @IsInt() @Min(1) LOGIN_LOCK_AFTER = 10;
  /** How long a lock lasts: the user is never locked out for ever. */
  @Transform(toInt) @IsInt() @Min(1) LOGIN_LOCK_SECONDS = 900;
  /** How often the erasures a deleted account still owes (an area was down) are retried (docs/api/account.md). */
  @Transform(toInt) @IsInt() @Min(1000) ACCOUNT_ERASURE_RETRY_MS = 60_000;
}
