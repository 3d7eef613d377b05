export * from './checks';
export * from './installers';
export * from './manifests';
export * from './schemas';
export * from './live';
export * from './app-config';
export * from './observability';
export * from './promql';
