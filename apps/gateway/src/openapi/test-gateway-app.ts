import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { NestFactory } from '@nestjs/core';
import { createLogger, loadConfig } from '@plaza/platform';
import type { NatsConnection } from 'nats';
import { GatewayConfig } from '../config/gateway.config';
import { MAX_PARAM_LENGTH } from '../endpoints/route-patterns';
import { GatewayModule } from '../gateway.module';
import { serveOpenApiDocument } from './openapi.controller';

/** A route fastify registered: its method and URL as the router holds it (`/v2/book/:id(^[0-9]+$)`). */
export interface ServedRoute {
  method: string;
  url: string;
}

/** A NATS connection that is never used: building the app and its routes sends nothing. */
function idleNats(): NatsConnection {
  const refuse = () => {
    throw new Error('test gateway app: no NATS');
  };
  const subscription = { unsubscribe: () => undefined, isClosed: () => false };
  return {
    subscribe: () => subscription,
    isClosed: () => false,
    publish: refuse,
    request: refuse,
    requestMany: refuse,
    jetstream: refuse,
    jetstreamManager: refuse,
  } as unknown as NatsConnection;
}

/**
 * The gateway's Nest application as main.ts builds it (the same root module, adapter router
 * options and so the same controllers and routes), without NATS and without listening: for tests
 * of what the application serves (the OpenAPI document against the fastify route table).
 * `routes` holds every route fastify registered, read with an `onRoute` hook.
 */
export async function createTestGatewayApp(env: Record<string, string> = {}): Promise<{ app: NestFastifyApplication; routes: ServedRoute[] }> {
  const config = loadConfig(GatewayConfig, { PICTURE_SIGNING_KEY: 'k'.repeat(32), ...env });
  const logger = createLogger('gateway', 'silent');
  const adapter = new FastifyAdapter({ routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH }, skipMiddie: true });
  const routes: ServedRoute[] = [];
  adapter.getInstance().addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url ?? route.path });
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.register({ service: 'gateway', config, logger, nats: idleNats() }),
    adapter,
    { logger: false, abortOnError: false },
  );
  serveOpenApiDocument(app);
  await app.init();
  return { app, routes };
}
