import { BaseConfig, parseBoolean } from '@plaza/platform';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { IsTrustProxy, parseTrustProxy, TrustProxy } from './trust-proxy';

/**
 * Reads the raw environment string: implicit conversion would already have turned "false" into
 * true (any non-empty string is truthy). Unparseable text stays as is, so @IsBoolean rejects it.
 */
const toBool = ({ obj, key }: { obj: Record<string, unknown>; key: string }) => parseBoolean(obj[key]) ?? obj[key];
const toInt = ({ value }: { value: unknown }) => Number(value);

/** Gateway configuration; names are fixed by docs/CONFIGURATION.md where it names them. */
export class GatewayConfig extends BaseConfig {
  @IsString() HOST = '127.0.0.1';
  @Transform(toInt) @IsInt() @Min(0) @Max(65535) PORT = 8080;

  /** The admin listener: `/metrics` and the probes' `/ready` (docs/OPERATING.md); never the public port. */
  @IsString() ADMIN_HOST = '127.0.0.1';
  @Transform(toInt) @IsInt() @Min(0) @Max(65535) ADMIN_PORT = 9464;

  /** Default: on under NODE_ENV=production, off otherwise (docs/CONFIGURATION.md). */
  @IsOptional() @Transform(toBool) @IsBoolean() REQUIRE_HTTPS?: boolean;
  @Transform(parseTrustProxy) @IsTrustProxy() TRUST_PROXY: TrustProxy = false;

  /** How long the gateway waits for a service before answering 504. */
  @Transform(toInt) @IsInt() @Min(100) @Max(120000) REQUEST_TIMEOUT_MS = 5000;

  @Transform(toBool) @IsBoolean() RATE_LIMIT_ENABLED = true;
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_ANON_PER_HOUR = 150;
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_APIKEY_PER_HOUR = 500;
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_MOVIE_BASIC_PER_MIN = 40;
  /** Fair shares, per gateway replica (docs/DECISIONS.md, "Limits"): a signed-in user, an app without a user, a client address on /auth2. */
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_USER_PER_MIN = 600;
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_APP_PER_MIN = 6000;
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_AUTH_PER_MIN = 60;
  /** Requests of one caller (user, app or address) in one gateway at once; more are refused with 429. */
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_CONCURRENT_PER_CALLER = 32;

  /** Prefix of the shared counters: gateways with the same namespace share their limits. */
  @IsString() @Matches(/^[A-Za-z0-9_-]{1,40}$/) RATE_LIMIT_NAMESPACE = 'default';

  @Transform(toBool) @IsBoolean() RESPONSE_CACHE_ENABLED = true;

  /** Adds `GET /_bench/echo` (gateway → NATS → a service → back, no database) for `npm run bench`. Off by default. */
  @Transform(toBool) @IsBoolean() BENCH_ENDPOINTS = false;
  @Transform(toInt) @IsInt() @Min(0) RESPONSE_CACHE_MAX_ENTRIES = 20000;
  /** The cache's bound in bytes (keys and answers as JSON text): answers vary in size, and a count alone bounds no memory. */
  @Transform(toInt) @IsInt() @Min(1024) RESPONSE_CACHE_MAX_BYTES = 64 * 1024 * 1024;

  /** Issuer and audience every access token must carry. */
  @IsString() TOKEN_ISSUER = 'plaza-identity';
  @IsString() TOKEN_AUDIENCE = 'plaza-api';

  /** HMAC key for private picture addresses; shared with the services that sign them. */
  @IsString() @MinLength(16, { message: 'PICTURE_SIGNING_KEY must be at least 16 characters' })
  PICTURE_SIGNING_KEY!: string;

  /** Largest JSON or form body; multipart bodies have their own limits (pictures). */
  @Transform(toInt) @IsInt() @Min(1024) BODY_LIMIT_BYTES = 1024 * 1024;

  /** Comma-separated allowed origins for browsers, or `*` (tokens travel in a header, never in cookies). */
  @IsString() CORS_ORIGINS = '*';

  get requireHttps(): boolean {
    return this.REQUIRE_HTTPS ?? this.NODE_ENV === 'production';
  }
}

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
