import { DynamicModule, Global, Module } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { CacheInvalidator } from './cache/cache-invalidator';
import { ReadinessRegistry } from './health/readiness';
import { LOGGER } from './logging/logger';
import { NATS_CONNECTION } from './nats/nats-connection';
import { ServiceBus } from './nats/service-bus';
import { CLOCK, Clock, systemClock } from './time/timestamps';
import { UsersDirectory } from './users/users-directory';

export const APP_CONFIG = Symbol('APP_CONFIG');
export const SERVICE_NAME = Symbol('SERVICE_NAME');

export interface PlatformContext {
  service: string;
  config: object;
  logger: Logger;
  nats: NatsConnection;
  clock?: Clock;
  /** Milliseconds a request to another service may take. */
  requestTimeoutMs?: number;
}

/**
 * What every process gets: its validated config, logger, NATS connection and the helpers built
 * on them. Global, so feature modules just inject.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(ctx: PlatformContext): DynamicModule {
    const bus = new ServiceBus(ctx.nats, ctx.requestTimeoutMs ?? 5000);
    return {
      module: PlatformModule,
      providers: [
        { provide: SERVICE_NAME, useValue: ctx.service },
        { provide: APP_CONFIG, useValue: ctx.config },
        { provide: LOGGER, useValue: ctx.logger },
        { provide: NATS_CONNECTION, useValue: ctx.nats },
        { provide: CLOCK, useValue: ctx.clock ?? systemClock },
        { provide: ServiceBus, useValue: bus },
        { provide: CacheInvalidator, useValue: new CacheInvalidator(bus) },
        { provide: UsersDirectory, useValue: new UsersDirectory(bus) },
        ReadinessRegistry,
      ],
      exports: [SERVICE_NAME, APP_CONFIG, LOGGER, NATS_CONNECTION, CLOCK, ServiceBus, CacheInvalidator, UsersDirectory, ReadinessRegistry],
    };
  }
}
