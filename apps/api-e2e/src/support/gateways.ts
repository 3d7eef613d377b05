import { freePort, httpStatus, ManagedProcess, waitFor } from '@plaza/stack';
import { join } from 'node:path';
import { stackInfo } from './stack-info';

export interface ExtraGateway {
  baseUrl: string;
  process: ManagedProcess;
  stop(): Promise<number | null>;
}

/**
 * Starts another gateway replica on the shared test stack (same NATS, same services), with its
 * own settings: how several replicas behave together (shared rate limits, cache invalidation).
 */
export async function startGateway(env: Record<string, string>): Promise<ExtraGateway> {
  const info = stackInfo();
  const port = await freePort();
  const name = `gateway-extra-${port}`;
  const proc = new ManagedProcess(name, {
    command: process.execPath,
    args: [join(__dirname, '..', '..', '..', 'gateway', 'dist', 'main.js')],
    env: {
      NODE_ENV: 'test',
      NATS_URL: info.natsServerUrl,
      NATS_USER: info.natsUsers.gateway.user,
      NATS_PASSWORD: info.natsUsers.gateway.password,
      MONGO_URL: info.mongoUrl,
      PICTURE_SIGNING_KEY: info.pictureSigningKey,
      PUBLIC_API_URL: info.baseUrl,
      PORT: String(port),
      // any free port: several replicas run on one machine
      ADMIN_PORT: '0',
      LOG_LEVEL: 'warn',
      // the shared stack's fair shares (global-setup.ts): suites share users and one address
      RATE_LIMIT_USER_PER_MIN: '1000000',
      RATE_LIMIT_APP_PER_MIN: '1000000',
      RATE_LIMIT_AUTH_PER_MIN: '1000000',
      RATE_LIMIT_CONCURRENT_PER_CALLER: '1000000',
      ...env,
    },
    logFile: join(info.dataDir, 'logs', `${name}.log`),
  }).start();
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(`${name} ready`, async () => (await httpStatus(`${baseUrl}/ready`)) === 200, 30_000, () =>
    proc.running ? undefined : proc.tail(),
  );
  return { baseUrl, process: proc, stop: () => proc.stop() };
}
