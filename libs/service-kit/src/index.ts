export * from './bootstrap/bootstrap-service';
export * from './mongo/mongo.module';
export * from './mongo/sequences';
export * from './mongo/index-coverage';
export * from './mongo/database-engine';
export * from './local-engine/local-read-model';
export * from './local-engine/local-grouped-mirror';
export * from './local-engine/local-search-index';
