import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
import { activeTraceIds, tracingActive } from '../observability/tracing';

/** Fields that must never reach a log line, wherever they appear in a logged object. */
export const REDACTED_PATHS = [
  'password', '*.password', 'client_secret', '*.client_secret', 'refresh_token', '*.refresh_token',
  'access_token', '*.access_token', 'code_verifier', '*.code_verifier', 'token', '*.token',
  'req.headers.authorization', 'headers.authorization', 'authorization',
];

export function createLogger(service: string, level = 'info', format: 'json' | 'pretty' = 'json'): Logger {
  return pino({
    name: service,
    level,
    base: { service, pid: process.pid },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // while tracing is on, a line written inside a request carries its trace and span (docs/OPERATING.md)
    ...(tracingActive() ? { mixin: activeTraceIds } : {}),
    ...(format === 'pretty' ? { transport: { target: 'pino-pretty', options: { singleLine: true } } } : {}),
  });
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
