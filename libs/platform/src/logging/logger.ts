import { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Logger } from 'pino';
import { activeTraceIds, tracingActive } from '../observability/tracing';

/** Fields that must never reach a log line, wherever they appear in a logged object. */
export const REDACTED_PATHS = [
  'password', '*.password', 'client_secret', '*.client_secret', 'refresh_token', '*.refresh_token',
  'access_token', '*.access_token', 'code_verifier', '*.code_verifier', 'token', '*.token',
  'req.headers.authorization', 'headers.authorization', 'authorization',
];

/** `destination`: where the lines go (standard output unless given; a test passes its own). */
export function createLogger(service: string, level = 'info', format: 'json' | 'pretty' = 'json', destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    name: service,
    level,
    base: { service, pid: process.pid },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // while tracing is on, a line written inside a request carries its trace and span (docs/OPERATING.md)
    ...(tracingActive() ? { mixin: activeTraceIds } : {}),
    ...(format === 'pretty' ? { transport: { target: 'pino-pretty', options: { singleLine: true } } } : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * The gateway's access log: `logger`'s lines (its level, bindings, destination and trace ids)
 * without the redaction. An access line is built from a fixed set of fields, none of which can
 * hold a secret: the request id, method, path without its query string, status, duration, the
 * user's and app's ids and the trace ids. The redaction's wildcard paths (`*.password`, ...) walk
 * every object logged, which made an access line cost three to five times as much (docs/PERFORMANCE.md, "Access log"),
 * paid on every request at the production level, `info`. A field added to an access line must be
 * as safe as these, or the line must go through `logger` itself.
 */
export function accessLoggerOf(logger: Logger): Logger {
  return logger.child({}, { redact: [] });
}

/** Lets Nest's own messages (module init, route mapping) go through the same structured logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}

export const LOGGER = Symbol('LOGGER');
export type { Logger };
