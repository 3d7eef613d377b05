import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { ReadinessRegistry } from '../health/readiness';
import { stopTracing } from '../observability/tracing';

/**
 * SIGTERM/SIGINT: report not-ready, stop taking new work (HTTP and NATS), finish what is in
 * flight, drain the NATS connection, close the database, exit 0. If that takes longer than the
 * grace period, exit 1 so the orchestrator's SIGKILL is never needed silently.
 */
export function installGracefulShutdown(
  app: { close(): Promise<void> },
  nats: NatsConnection,
  logger: Logger,
  readiness: ReadinessRegistry,
  graceMs: number,
  beforeClose: () => Promise<void> = async () => undefined,
): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    readiness.markShuttingDown();
    const timer = setTimeout(() => {
      logger.error({ graceMs }, 'shutdown exceeded the grace period');
      process.exit(1);
    }, graceMs);
    timer.unref();
    try {
      await beforeClose();
      await app.close();
      if (!nats.isClosed()) await nats.drain();
      // the spans of the last requests leave before the process does
      await stopTracing();
      logger.info('stopped cleanly');
      clearTimeout(timer);
      logger.flush?.();
      setImmediate(() => process.exit(0));
    } catch (err) {
      logger.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection'));
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception; exiting');
    process.exit(1);
  });
}
