import globalSetup from './global-setup';

/**
 * Global setup of `e2e-mongodb` (jest.mongodb.config.js): the shared stack of global-setup.ts with
 * every service on the MongoDB branch (DATABASE_MODE=mongodb) against the local engine, so that
 * `npm test` runs the code path production runs. The apps inherit this process's environment.
 */
export default async function mongodbModeSetup(): Promise<void> {
  process.env.DATABASE_MODE = 'mongodb';
  process.stdout.write('\n[e2e] DATABASE_MODE=mongodb: the services take the MongoDB branch on the local engine\n');
  await globalSetup();
}
