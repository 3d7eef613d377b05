import './instrumentation';
import { applyHeapGrowth } from './config/heap-growth';
import 'reflect-metadata';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import { ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { cacheValidationMetadata, validationErrorsToApiError } from '@plaza/contracts';
import {
  accessLoggerOf, ConfigError, connectNats, loadBannedWords, createLogger, initMetrics, installGracefulShutdown, loadConfig, PinoNestLogger, ReadinessRegistry, ServiceBus, tracingActive,
} from '@plaza/platform';
import type { IncomingMessage } from 'node:http';
import { hostname } from 'node:os';
import { RevocationList } from './auth/revocation-list';
import { TokenVerifier } from './auth/token-verifier';
import { ResponseCache } from './cache/response-cache';
import { GatewayConfig } from './config/gateway.config';
import { GatewayModule } from './gateway.module';
import { adminPortOf, startAdminServer } from './health/admin-server';
import { GatewayReadiness, markGatewayShuttingDown } from './health/gateway-readiness';
import { MULTIPART_LIMITS } from './pictures/multipart-body';
import { registerTraceNaming, registerWireHooks } from './http/wire-hooks';
import { requestIdOf } from './http/request-id';
import { constantCorsHeaders, corsOptions } from './http/cors';
import { firstAnswer, httpServerWith } from './http/http-server';
import { securityHeaders } from './http/security-headers';
import { registerBodyShapeRules } from './http/body-shape';
import { clientErrorHandler } from './http/early-errors';
import { frameworkErrorHandler, rejectNonPreflightOptions } from './http/framework-errors';
import { registerResponseShaping } from './http/response-shaping.hooks';
import { RateLimiter } from './rate-limit/rate-limiter';
import { RateLimitPolicy } from './rate-limit/rate-limit.policy';
import { registerAuthLimit } from './rate-limit/auth-limit.hook';
import { InFlightLimit, registerInFlightRefusals } from './rate-limit/in-flight';
import { clientAddressOf } from './config/trust-proxy';
import { AccessPolicy } from './access/access-policy';
import { registerCachedReadFastPath } from './cache/cached-read.fast-path';
import { CachedReadLane } from './cache/cached-read.lane';
import { MAX_PARAM_LENGTH } from './endpoints/route-patterns';
import { registerWebPages } from './web/web-routes';
import { serveOpenApiDocument } from './openapi/openapi.controller';

async function bootstrap(): Promise<void> {
  applyHeapGrowth();
  let config: GatewayConfig;
  try {
    config = loadConfig(GatewayConfig);
    loadBannedWords(config);
    cacheValidationMetadata();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`gateway: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  initMetrics('gateway', config.METRICS_ENABLED);
  const logger = createLogger('gateway', config.LOG_LEVEL, config.LOG_FORMAT);
  // one line a request at `info` (the lane's and fastify's alike), without the redaction's cost
  const accessLog = logger.isLevelEnabled('info') ? accessLoggerOf(logger) : undefined;
  const nats = await connectNats(config, `gateway@${hostname()}:${process.pid}`, logger);

  const security = securityHeaders({
    // an API answer loads nothing (DECISIONS.md); helmet's defaults add eight directives that only
    // loosen `default-src 'none'` for HTML, on every answer. The HTML pages set their own policy.
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    hsts: config.requireHttps,
    xFrameOptions: { action: 'deny' },
    // the headers OWASP's REST cheat sheet asks of an API, no more: the rest of helmet's set speaks
    // to old browsers rendering HTML pages (X-XSS-Protection, X-Download-Options, Flash's policy
    // file, DNS prefetching, COOP/CORP, Origin-Agent-Cluster), and every answer would carry it
    // (250 bytes, and seven more lines for every client to parse)
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  // repeat reads of cached answers skip fastify altogether (cached-read.lane.ts); the lane needs
  // the CORS headers to be the same for every request, as they are when any origin is allowed
  const corsHeaders = constantCorsHeaders(config.CORS_ORIGINS);
  const lane = config.RESPONSE_CACHE_ENABLED && corsHeaders ? new CachedReadLane(config.RESPONSE_CACHE_MAX_ENTRIES, security, corsHeaders) : undefined;
  // a caller's share of the gateway, counted and refused before fastify (rate-limit/in-flight.ts),
  // after the lane: a cached answer is written at once and holds nothing
  const inFlight = config.RATE_LIMIT_ENABLED
    ? new InFlightLimit(config.RATE_LIMIT_CONCURRENT_PER_CALLER, clientAddressOf(config.TRUST_PROXY), security, corsHeaders)
    : undefined;
  const adapter = new FastifyAdapter({
    ...(lane || inFlight || tracingActive() ? { serverFactory: httpServerWith(firstAnswer(lane && ((req, res) => lane.tryAnswer(req, res)), inFlight && ((req, res) => inFlight.admit(req, res)))) } : {}),
    // requests rejected before routing still get the error shape and the security headers
    frameworkErrors: frameworkErrorHandler(security),
    clientErrorHandler: clientErrorHandler(security),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: config.BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // the gateway has no Nest middleware (its request rules are fastify hooks and guards), and
    // middie's promise-returning hook cost every request a microtask turn; a middleware added later
    // fails at start-up, never silently
    skipMiddie: true,
    genReqId: (req: IncomingMessage) => requestIdOf(req.headers),
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.register({ service: 'gateway', config, logger, nats, requestTimeoutMs: config.REQUEST_TIMEOUT_MS }),
    adapter,
    { logger: new PinoNestLogger(logger.child({ context: 'nest' })) },
  );

  // DTOs validated at the edge; unknown parameters are ignored (docs/api/README.md)
  app.useGlobalPipes(
    new ValidationPipe({
      transform: true,
      whitelist: true,
      forbidUnknownValues: false,
      validationError: { target: false, value: false },
      exceptionFactory: validationErrorsToApiError,
    }),
  );
  // /v2/openapi.json is generated from this application's routes, when first asked for
  serveOpenApiDocument(app);
  const fastify = app.getHttpAdapter().getInstance();
  let closing = false;
  // before the CORS plugin's hook: preflight answers carry the security headers too, and an
  // OPTIONS that is no preflight gets the error shape of docs/api/README.md, "Errors"
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.headers(security);
    reply.header('x-request-id', request.id);
    // while draining, answers close their keep-alive connection so the server can finish closing
    if (closing) reply.header('connection', 'close');
    if (rejectNonPreflightOptions(request, reply)) return;
    done();
  });
  await app.register(cors, corsOptions(config.CORS_ORIGINS));
  registerTraceNaming(fastify);
  // the web pages of the records' `alt` addresses (docs/api/web.md), in a cache of their own that
  // the same invalidations reach. A repeat read of a cached page is answered on onRequest right
  // here, after the security and CORS headers (and the trace's name) and before the API's hooks (auth limit,
  // cached-read fast path, multipart): a page takes no token and counts against no limit but the
  // in-flight share, which every request but the lane's counts before fastify sees it.
  const pageCache = config.RESPONSE_CACHE_ENABLED
    ? new ResponseCache({ maxEntries: Math.max(1, Math.floor(config.RESPONSE_CACHE_MAX_ENTRIES / 4)), maxBytes: Math.floor(config.RESPONSE_CACHE_MAX_BYTES / 4) }, logger)
    : undefined;
  registerWebPages(fastify, { bus: app.get(ServiceBus), cache: pageCache, publicWebUrl: config.PUBLIC_WEB_URL, timezone: config.SERVICE_TIMEZONE, logger });
  registerAuthLimit(fastify, app.get(RateLimitPolicy));
  if (inFlight) {
    registerInFlightRefusals(fastify);
    inFlight.enable({ policy: app.get(AccessPolicy), tokens: app.get(TokenVerifier), rateLimits: app.get(RateLimitPolicy) });
  }
  // the fast path's onRequest hook runs before multipart's: a cached read is answered without
  // multipart's per-request hook (a promise and a 'close' listener, for temp files no GET has)
  if (config.RESPONSE_CACHE_ENABLED) {
    // the same rules and cache for both, so the lane answers exactly what the fast path would
    const cachedReads = { policy: app.get(AccessPolicy), tokens: app.get(TokenVerifier), rateLimits: app.get(RateLimitPolicy), cache: app.get(ResponseCache) };
    registerCachedReadFastPath(fastify, { ...cachedReads, lane });
    lane?.enable({ ...cachedReads, accessLog });
  }
  await app.register(multipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true });
  registerBodyShapeRules(fastify);
  registerWireHooks(fastify, accessLog);
  registerResponseShaping(fastify, config.RESPONSE_CACHE_ENABLED ? app.get(ResponseCache) : undefined);

  // dependencies the guard needs before the first request; each retries until NATS/identity answer
  const revocations = app.get(RevocationList);
  const limiter = app.get(RateLimiter);
  const tokens = app.get(TokenVerifier);
  app.get(ResponseCache).start(nats);
  pageCache?.start(nats);
  const startWithRetry = (name: string, fn: () => Promise<void>) => {
    const attempt = () =>
      fn().catch((err: unknown) => {
        logger.warn({ err: (err as Error).message }, `${name} not available yet; retrying`);
        setTimeout(attempt, 1000).unref();
      });
    void attempt();
  };
  startWithRetry('revocation list', () => revocations.start());
  startWithRetry('rate limiter', () => limiter.start());
  startWithRetry('token keys', () => tokens.refreshKeys());

  await app.listen(config.PORT, config.HOST);
  const admin = await startAdminServer(config.ADMIN_HOST, config.ADMIN_PORT, app.get(GatewayReadiness));
  logger.info({ port: config.PORT, host: config.HOST, adminPort: adminPortOf(admin), adminHost: config.ADMIN_HOST }, 'gateway listening');

  installGracefulShutdown(app, nats, logger, app.get(ReadinessRegistry), config.SHUTDOWN_GRACE_MS, async () => {
    markGatewayShuttingDown();
    closing = true;
    lane?.close();
    inFlight?.close();
    // a keep-alive connection whose request finishes during the drain is closed once it goes idle
    // (server.close() closes only the connections idle at that moment)
    setInterval(() => fastify.server.closeIdleConnections(), 50).unref();
  });
}

void bootstrap();
