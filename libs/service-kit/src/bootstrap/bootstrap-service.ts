import { DynamicModule, Module, Type, ForwardReference } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getConnectionToken } from '@nestjs/mongoose';
import type { INestMicroservice } from '@nestjs/common';
import { cacheValidationMetadata, ServiceName } from '@plaza/contracts';
import type { Connection } from 'mongoose';
import { hostname } from 'node:os';
import {
  clockFromEnv, ConfigError, connectNats, createHealthController, createLogger, createMessageValidationPipe, DrainingNatsServer,
  initMetrics, installGracefulShutdown, isNatsConnected, loadBannedWords, loadConfig, PinoNestLogger, PlatformModule, probePortOf, ReadinessRegistry,
  RpcErrorFilter, ServiceConfig, serviceProbeAnswers, startProbeServer,
} from '@plaza/platform';
import { LeaseRefusedError, leaseForLocalEngine } from '../lease/service-lease';
import { isFerretDbConnection } from '../mongo/database-engine';
import { loadDatabaseSettings } from '../mongo/database-mode';
import { mongoModuleFor, pingDatabase } from '../mongo/mongo.module';
import { syncSchemaIndexes } from '../mongo/schema-indexes';

type ModuleImport = Type<unknown> | DynamicModule | Promise<DynamicModule> | ForwardReference;

export interface ServiceDefinition<C extends ServiceConfig> {
  service: ServiceName;
  configClass: new () => C;
  imports: (config: C) => ModuleImport[];
}

/**
 * Starts one area service: a NATS microservice (queue group = service name) with its own
 * database, plus the probe listener for /health, /ready and /metrics (probe-server.ts). Every
 * area's main.ts is one call, after its instrumentation.ts (tracing must start before the
 * database driver loads).
 */
export async function bootstrapService<C extends ServiceConfig>(definition: ServiceDefinition<C>): Promise<INestMicroservice> {
  const { service } = definition;
  let config: C;
  try {
    config = loadConfig(definition.configClass);
    // DATABASE_MODE, read by the repositories' DatabaseEngine and the lease: checked here with the rest
    loadDatabaseSettings();
    loadBannedWords(config);
    cacheValidationMetadata();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${service}: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  initMetrics(service, config.METRICS_ENABLED);
  const logger = createLogger(service, config.LOG_LEVEL, config.LOG_FORMAT);
  const nats = await connectNats(config, `${service}@${hostname()}:${process.pid}`, logger);

  @Module({})
  class ServiceRootModule {}

  const root: DynamicModule = {
    module: ServiceRootModule,
    imports: [
      PlatformModule.forRoot({ service, config, logger, nats, clock: clockFromEnv(config) }),
      mongoModuleFor(service, config),
      ...definition.imports(config),
    ],
    controllers: [createHealthController(service)],
  };

  const limits = { maxConcurrent: config.MAX_CONCURRENT_REQUESTS, maxPerCaller: config.MAX_CONCURRENT_PER_CALLER, maxWaitingPerCaller: config.MAX_WAITING_PER_CALLER };
  const app = await NestFactory.createMicroservice(root, {
    strategy: new DrainingNatsServer(nats, { queue: service, logger, limits }),
    logger: new PinoNestLogger(logger.child({ context: 'nest' })),
  });

  const readiness = app.get(ReadinessRegistry);
  const connection = app.get<Connection>(getConnectionToken());
  readiness.register({ name: 'nats', check: async () => isNatsConnected(nats) });
  readiness.register({ name: 'database', check: () => pingDatabase(connection) });

  // on the local engine's branch one instance per service: a second one stops here (docs/ENGINES.md,
  // "Replicas"); DATABASE_MODE=mongodb on FerretDB is a test configuration that takes no lease
  const mode = loadDatabaseSettings().DATABASE_MODE;
  const localBranch = async () => mode === 'local' || (mode === 'auto' && (await isFerretDbConnection(connection)));
  try {
    await leaseForLocalEngine(localBranch, connection, service, logger, () => process.kill(process.pid, 'SIGTERM'));
  } catch (err) {
    if (!(err instanceof LeaseRefusedError)) throw err;
    process.stderr.write(`${service}: ${err.message}\n`);
    logger.fatal(err.message);
    await app.close().catch(() => undefined);
    await nats.close().catch(() => undefined);
    process.exit(1);
  }

  // the schemas' indexes, by engine (schema-indexes.ts). On FerretDB before the first request
  // (a few milliseconds); on MongoDB in the background, as mongoose's autoIndex did: building a new
  // index on a large collection can outlast the start-up probe (deploy/k8s), and queries run meanwhile
  const ferretDb = await isFerretDbConnection(connection).catch(() => undefined);
  // as mongoose's autoIndex did on a failure: the service runs, and says so loudly
  const failed = (err: unknown) => logger.error({ err: (err as Error).message }, 'could not create the schemas\' indexes');
  if (ferretDb === undefined) failed(new Error('the database did not say which engine it is'));
  else {
    const indexes = syncSchemaIndexes(connection, ferretDb).then((done) => {
      if (done.dropped.length > 0) logger.info({ dropped: done.dropped }, 'dropped indexes FerretDB never reads through (docs/ENGINES.md)');
    }, failed);
    if (ferretDb) await indexes;
  }

  app.useGlobalPipes(createMessageValidationPipe());
  app.useGlobalFilters(new RpcErrorFilter(logger));
  await app.listen();
  const probes = await startProbeServer(config.HEALTH_HOST, config.HEALTH_PORT, serviceProbeAnswers(service, readiness));
  logger.info({ healthPort: probePortOf(probes) }, `${service} service started`);

  installGracefulShutdown(app, nats, logger, readiness, config.SHUTDOWN_GRACE_MS);
  return app;
}
