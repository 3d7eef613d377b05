import { Inject, Injectable, OnApplicationShutdown, OnModuleInit, Provider } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import { APP_CONFIG, CLOCK, Clock, LOGGER, Logger, NATS_CONNECTION, ReadinessRegistry, ServiceConfig } from '@plaza/platform';
import type { Connection } from 'mongoose';
import type { NatsConnection } from 'nats';
import { CACHE_INVALIDATED, ChangeKind } from '@plaza/contracts';
import { DatabaseEngine } from '../mongo/database-engine';
import { ChangeFeed } from './change-feed';
import { scheduleSweeps } from './repair-journal';

/** The response-cache tags of a catalogue record (apps/gateway/src/endpoints/endpoint-table.ts, cache policies). */
const CACHE_TAGS: Record<ChangeKind, (id: string) => string> = {
  book: (id) => `book:${id}`,
  series: (id) => `series:${id}`,
  movie: (id) => `movie:subject:${id}`,
  celebrity: (id) => `movie:celebrity:${id}`,
  event: (id) => `event:${id}`,
  city: (id) => `loc:${id}`,
};

/** How often unconfirmed changes are looked for while the service runs (also at start). */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Starts the change feed with the service: the stream is made sure of and the changes a
 * crashed process left unconfirmed are published before the service reports ready.
 */
@Injectable()
export class ChangeFeedRunner implements OnModuleInit, OnApplicationShutdown {
  private schedule?: { first: Promise<void>; stop(): void };
  private swept = false;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly readiness: ReadinessRegistry,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.readiness.register({ name: 'change-feed', check: async () => this.swept });
    this.schedule = scheduleSweeps(
      async () => {
        const published = await this.feed.sweep();
        if (published > 0) this.logger.info({ published }, 'catalogue changes left unconfirmed were published');
      },
      SWEEP_INTERVAL_MS,
      (err) => this.logger.warn({ err: err.message }, 'change feed sweep failed; will retry'),
    );
    void this.schedule.first.then(() => (this.swept = true));
  }

  onApplicationShutdown(): void {
    this.schedule?.stop();
  }
}

/** The providers of a service that publishes catalogue changes (book, movie, event). */
export function changeFeedProviders(): Provider[] {
  return [
    {
      provide: ChangeFeed,
      inject: [getConnectionToken(), NATS_CONNECTION, APP_CONFIG, CLOCK, LOGGER, DatabaseEngine],
      useFactory: (connection: Connection, nats: NatsConnection, config: ServiceConfig, clock: Clock, logger: Logger, engine: DatabaseEngine) =>
        new ChangeFeed(connection, nats, {
          timeZone: config.SERVICE_TIMEZONE,
          now: () => clock.now(),
          warn: (message, detail) => logger.warn(detail, message),
          // straight on the connection (not the bus's batch, which leaves a turn later): before the change itself
          invalidate: (kind, id) =>
            nats.publish(CACHE_INVALIDATED.subject, new TextEncoder().encode(JSON.stringify({ pattern: CACHE_INVALIDATED.subject, data: { tags: [CACHE_TAGS[kind](id)] } }))),
        }, 'change_feed', engine),
    },
    ChangeFeedRunner,
  ];
}
