import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';
import { IsUsableNatsAuth } from '../nats/nats-connection';
import { parseBoolean } from './load-config';

/** Configuration every service and the gateway share (names fixed by docs/CONFIGURATION.md). */
export class BaseConfig {
  @IsString() @Matches(/^nats:\/\//, { message: 'NATS_URL must be a nats:// URL' })
  NATS_URL = 'nats://127.0.0.1:4222';

  /**
   * This process's NATS user, with NATS_PASSWORD or NATS_PASSWORD_FILE (a mounted secret); or
   * NATS_CREDENTIALS_FILE (a NATS in operator mode); or the credentials in NATS_URL
   * (`nats://user:password@host:4222`). Unset: none (a NATS without authentication). The
   * subjects each user may use: tools/stack/src/nats-auth.ts (docs/DECISIONS.md, "NATS"). The rule checks all four
   * together, so it sits here, where it always runs.
   */
  @IsUsableNatsAuth()
  NATS_USER?: string;

  @IsOptional() @IsString()
  NATS_PASSWORD?: string;

  @IsOptional() @IsString()
  NATS_PASSWORD_FILE?: string;

  @IsOptional() @IsString()
  NATS_CREDENTIALS_FILE?: string;

  @IsUrl({ require_tld: false, require_protocol: true })
  PUBLIC_API_URL = 'http://127.0.0.1:8080';

  @IsUrl({ require_tld: false, require_protocol: true })
  PUBLIC_WEB_URL = 'http://127.0.0.1:8080/web';

  @IsString()
  SERVICE_TIMEZONE = 'Asia/Shanghai';

  @IsIn(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
  LOG_LEVEL = 'info';

  @IsIn(['json', 'pretty'])
  LOG_FORMAT: 'json' | 'pretty' = 'json';

  @IsOptional() @IsIn(['development', 'production', 'test'])
  NODE_ENV?: string;

  /** A file of words user-written text may not contain, one per line (`#` starts a comment); unset: none (code 1004). */
  @IsOptional() @IsString()
  BANNED_WORDS_FILE?: string;

  /** Prometheus metrics at `GET /metrics` (docs/OPERATING.md); off only to measure what they cost. */
  @Transform(({ obj }: { obj: Record<string, unknown> }) => parseBoolean(obj.METRICS_ENABLED) ?? obj.METRICS_ENABLED) @IsBoolean()
  METRICS_ENABLED = true;

  /** How long a process waits for in-flight work after SIGTERM before it exits anyway. */
  @Transform(({ value }) => Number(value)) @IsInt() @Min(0) @Max(120000)
  SHUTDOWN_GRACE_MS = 10000;
}

/** What a NATS microservice with its own database adds. */
export class ServiceConfig extends BaseConfig {
  /** Shared connection string; each service uses its own database on it (docs/CONFIGURATION.md). */
  @IsString() @Matches(/^mongodb(\+srv)?:\/\//, { message: 'MONGO_URL must be a mongodb:// URL' })
  MONGO_URL = 'mongodb://127.0.0.1:27017';

  /** Port of the small HTTP server that answers /health and /ready for probes. */
  @Transform(({ value }) => Number(value)) @IsInt() @Min(0) @Max(65535)
  HEALTH_PORT = 0;

  @IsString()
  HEALTH_HOST = '127.0.0.1';

  /**
   * Load shedding (docs/DECISIONS.md, "Limits"): requests one instance holds at once; of those,
   * how many handlers one caller may run at once, and how many more of its requests may wait for
   * a turn; the excess is refused at once (503/1101, 429/111 or 112). The default wait (24) is
   * what one gateway's `RATE_LIMIT_CONCURRENT_PER_CALLER` (32) leaves beyond the running 8.
   */
  @Transform(({ value }) => Number(value)) @IsInt() @Min(1) @Max(100000)
  MAX_CONCURRENT_REQUESTS = 256;

  @Transform(({ value }) => Number(value)) @IsInt() @Min(1) @Max(100000)
  MAX_CONCURRENT_PER_CALLER = 8;

  @Transform(({ value }) => Number(value)) @IsInt() @Min(0) @Max(100000)
  MAX_WAITING_PER_CALLER = 24;

  /** Fail database calls after this long instead of buffering them (a stopped database gives fast 5xx). */
  @Transform(({ value }) => Number(value)) @IsInt() @Min(100) @Max(60000)
  MONGO_TIMEOUT_MS = 2000;
}

/** `<SERVICE>_MONGO_URL` overrides `MONGO_URL` for one service. */
export function mongoUrlFor(service: string, config: ServiceConfig, env: NodeJS.ProcessEnv = process.env): string {
  return env[`${service.toUpperCase()}_MONGO_URL`] || config.MONGO_URL;
}
