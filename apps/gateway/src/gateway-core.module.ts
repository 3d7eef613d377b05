import { DynamicModule, Global, Module } from '@nestjs/common';
import { LOGGER, Logger, NATS_CONNECTION, ServiceBus } from '@plaza/platform';
import { PictureSigner, PictureStore } from '@plaza/pictures';
import type { NatsConnection } from 'nats';
import { ApikeyResolver } from './auth/apikey-resolver';
import { BearerStrategy } from './auth/bearer.strategy';
import { RevocationList } from './auth/revocation-list';
import { TokenVerifier } from './auth/token-verifier';
import { ResponseCache } from './cache/response-cache';
import { GATEWAY_CONFIG, GatewayConfig } from './config/gateway.config';
import { PictureUploads } from './pictures/picture-uploads';
import { RateLimiter } from './rate-limit/rate-limiter';
import { RateLimitPolicy } from './rate-limit/rate-limit.policy';
import { AccessPolicy } from './access/access-policy';

/** The gateway's shared services, global so every area controller can inject them. */
@Global()
@Module({})
export class GatewayCoreModule {
  static register(config: GatewayConfig): DynamicModule {
    const providers = [
      { provide: GATEWAY_CONFIG, useValue: config },
      {
        provide: RevocationList,
        inject: [NATS_CONNECTION, LOGGER],
        useFactory: (nc: NatsConnection, logger: Logger) => new RevocationList(nc, logger),
      },
      {
        provide: TokenVerifier,
        inject: [ServiceBus, RevocationList, LOGGER],
        useFactory: (bus: ServiceBus, revocations: RevocationList, logger: Logger) =>
          new TokenVerifier(bus, revocations, { issuer: config.TOKEN_ISSUER, audience: config.TOKEN_AUDIENCE }, logger),
      },
      { provide: ApikeyResolver, inject: [ServiceBus, RevocationList], useFactory: (bus: ServiceBus, revocations: RevocationList) => new ApikeyResolver(bus, revocations) },
      { provide: RateLimiter, inject: [NATS_CONNECTION], useFactory: (nc: NatsConnection) => new RateLimiter(nc) },
      { provide: ResponseCache, inject: [LOGGER], useFactory: (logger: Logger) => new ResponseCache({ maxEntries: config.RESPONSE_CACHE_MAX_ENTRIES, maxBytes: config.RESPONSE_CACHE_MAX_BYTES, enabled: config.RESPONSE_CACHE_ENABLED }, logger) },
      { provide: PictureStore, inject: [NATS_CONNECTION], useFactory: (nc: NatsConnection) => new PictureStore(nc) },
      { provide: PictureSigner, useValue: new PictureSigner(config.PICTURE_SIGNING_KEY) },
      { provide: PictureUploads, inject: [PictureStore], useFactory: (store: PictureStore) => new PictureUploads(store) },
      RateLimitPolicy,
      AccessPolicy,
      BearerStrategy,
    ];
    return {
      module: GatewayCoreModule,
      providers,
      exports: providers.map((p) => ('provide' in p ? p.provide : p)),
    };
  }
}
