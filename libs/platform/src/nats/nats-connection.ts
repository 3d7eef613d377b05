import { connect, NatsConnection, Events, DebugEvents } from 'nats';
import type { Logger } from 'pino';

export const NATS_CONNECTION = Symbol('NATS_CONNECTION');

/**
 * One connection per process, reconnecting for ever: a restarted NATS server must never need an
 * operator to restart the services. Requests made while disconnected fail fast (the caller's
 * timeout) instead of queueing without bound.
 */
export async function connectNats(url: string, name: string, logger: Logger): Promise<NatsConnection> {
  const nc = await connect({
    servers: url.split(','),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    reconnectJitter: 100,
    waitOnFirstConnect: true,
    pingInterval: 10_000,
    // nats.js otherwise captures a stack trace (an Error) for every request, in case it times out
    noAsyncTraces: true,
    maxPingOut: 3,
  });
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === Events.Disconnect) logger.warn({ nats: status.data }, 'nats disconnected');
      else if (status.type === Events.Reconnect) logger.info({ nats: status.data }, 'nats reconnected');
      else if (status.type === Events.Error) logger.error({ nats: String(status.data) }, 'nats error');
      else if (status.type === DebugEvents.Reconnecting) logger.debug('nats reconnecting');
    }
  })();
  logger.info({ server: nc.getServer() }, 'nats connected');
  return nc;
}

/** True when the connection is up (not closed, not between reconnect attempts). */
export function isNatsConnected(nc: NatsConnection | undefined): boolean {
  if (!nc || nc.isClosed() || nc.isDraining()) return false;
  // nats.js has no public "connected" flag; a server info is present only while connected
  return (nc as unknown as { protocol?: { connected?: boolean } }).protocol?.connected !== false;
}
