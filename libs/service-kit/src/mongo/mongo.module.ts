import { DynamicModule } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import mongoose, { type Connection } from 'mongoose';
import { metricsEnabled, mongoUrlFor, ServiceConfig } from '@plaza/platform';
import { recordCommandDurations } from './command-metrics';

/** The database name: the one in the URL's path if given, else the service's name. */
export function databaseNameFor(service: string, url: string): string {
  const withoutQuery = url.split('?')[0];
  const afterHost = withoutQuery.replace(/^mongodb(\+srv)?:\/\/[^/]*/, '');
  const name = afterHost.replace(/^\//, '');
  return name || service;
}

/**
 * Each service owns one database (docs/CONFIGURATION.md). Commands are not buffered and server
 * selection gives up quickly, so a stopped database turns into fast 503s, never hanging requests.
 */
export function mongoModuleFor(service: string, config: ServiceConfig): DynamicModule {
  // mongoose otherwise captures a stack trace in every query's exec, only to report a query run
  // twice (which no code here does): 3-4 % of a service's CPU on a read (docs/PERFORMANCE.md)
  mongoose.set('skipOriginalStackTraces', true);
  const uri = mongoUrlFor(service, config);
  return MongooseModule.forRoot(uri, {
    dbName: databaseNameFor(service, uri),
    bufferCommands: false,
    serverSelectionTimeoutMS: config.MONGO_TIMEOUT_MS,
    connectTimeoutMS: config.MONGO_TIMEOUT_MS,
    socketTimeoutMS: 30_000,
    maxPoolSize: 20,
    // the indexes are created at start by syncSchemaIndexes, by engine (schema-indexes.ts)
    autoIndex: false,
    appName: `plaza-${service}`,
    // keep trying at start-up: the database may come up after the service
    lazyConnection: false,
    retryAttempts: Number.MAX_SAFE_INTEGER,
    retryDelay: 500,
    // the driver's command events feed the command-duration metric (docs/OPERATING.md)
    monitorCommands: metricsEnabled(),
    onConnectionCreate: (connection: Connection) => recordCommandDurations(connection),
  });
}

export async function pingDatabase(connection: Connection): Promise<boolean> {
  if (connection.readyState !== 1 || !connection.db) return false;
  const result = await connection.db.admin().command({ ping: 1 });
  return result?.ok === 1;
}
