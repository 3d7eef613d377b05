import { checkAppEnv, k8sEnv, placeholderFor } from './app-config';
import type { K8sObject } from './manifests';

class FakeConfig {
  NATS_URL = 'nats://127.0.0.1:4222';
  MONGO_URL = 'mongodb://127.0.0.1:27017';
  SECRET?: string = undefined;
  FLAG = false;
  LIMIT = 10;
}
const loader = {
  cls: FakeConfig,
  loadConfig: (_cls: unknown, env: Record<string, string>) => {
    if (!env.SECRET) throw new Error('Invalid configuration:\n  - SECRET must be a string');
    // the bug the check is for: any non-empty string read as true
    return { ...new FakeConfig(), ...env, FLAG: env.FLAG ? Boolean(env.FLAG) : false, LIMIT: env.LIMIT ? Number(env.LIMIT) : 10 };
  },
};

describe('app environment against its config class', () => {
  it('accepts known names, the image defaults, <SERVICE>_MONGO_URL, the OpenTelemetry SDK\'s OTEL_* and node\'s NODE_OPTIONS', () => {
    expect(checkAppEnv(loader, 'book', { NATS_URL: 'nats://nats:4222', SECRET: 'x', BOOK_MONGO_URL: 'mongodb://m', OTEL_TRACES_EXPORTER: 'none', NODE_OPTIONS: '--max-old-space-size=256' }, { PORT: '8080' })).toEqual([]);
    expect(checkAppEnv(loader, 'book', { SECRET: 'x', OTLP_ENDPOINT: 'http://c:4318' }, {})).toEqual(['book: sets OTLP_ENDPOINT, which FakeConfig does not read']);
  });

  it('reports a name the app does not read, and a value it rejects', () => {
    expect(checkAppEnv(loader, 'book', { NATS_ULR: 'nats://nats:4222' }, {})).toEqual([
      'book: sets NATS_ULR, which FakeConfig does not read',
      expect.stringContaining('FakeConfig rejects the environment: Invalid configuration'),
    ]);
  });

  it('reports a value the app reads differently from what is set', () => {
    expect(checkAppEnv(loader, 'book', { SECRET: 'x', FLAG: 'true', LIMIT: '20' }, {})).toEqual([]);
    expect(checkAppEnv(loader, 'book', { SECRET: 'x', FLAG: 'false' }, {})).toEqual(['book: FLAG=false is read as true by FakeConfig']);
  });

  it('collects a Deployment environment from its ConfigMaps and env, secrets as placeholders', () => {
    const objects: K8sObject[] = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plaza-common' }, data: { NATS_URL: 'nats://nats:4222', LOG_LEVEL: 'info' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'book-config-abc' }, data: { LOG_LEVEL: 'debug' } },
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'book' },
        spec: {
          template: {
            spec: {
              containers: [
                {
                  name: 'book',
                  envFrom: [{ configMapRef: { name: 'plaza-common' } }, { configMapRef: { name: 'book-config-abc' } }],
                  env: [{ name: 'MONGO_URL', valueFrom: { secretKeyRef: { name: 'book-db', key: 'url' } } }, { name: 'X', value: '1' }],
                },
              ],
            },
          },
        },
      },
    ];
    expect(k8sEnv(objects, 'book')).toEqual({ NATS_URL: 'nats://nats:4222', LOG_LEVEL: 'debug', MONGO_URL: placeholderFor('MONGO_URL'), X: '1' });
  });
});
