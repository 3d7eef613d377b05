import { captureQueries, unindexedQueries } from '@plaza/service-kit';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose, { Model } from 'mongoose';
import type { NatsConnection } from 'nats';
import { IdentityConfig } from '../config/identity.config';
import { TokenIssuer } from './token-issuer';
import { RefreshTokenDocument, RefreshTokenSchema } from './token.schemas';

/**
 * Every refresh-token query that filters on more than `_id` has an index on MongoDB (FerretDB
 * ignores secondary indexes): a grant's revocation deletes by `grant_id`, the purge by `expires_at`.
 */
describe('refresh-token queries use indexes on MongoDB', () => {
  const keysDir = mkdtempSync(join(tmpdir(), 'plaza-keys-'));
  afterAll(() => rmSync(keysDir, { recursive: true, force: true }));

  it('claim, revoke a grant, purge the expired', async () => {
    const model = new mongoose.Mongoose().model(RefreshTokenDocument.name, RefreshTokenSchema) as unknown as Model<RefreshTokenDocument>;
    const nats = { jetstream: () => ({ views: { kv: async () => ({ put: async () => 1 }) } }) } as unknown as NatsConnection;
    const config = Object.assign(new IdentityConfig(), { JWT_KEYS_DIR: keysDir, NODE_ENV: 'test' });
    const issuer = new TokenIssuer(config, nats, { now: () => new Date() }, model);
    await issuer.onModuleInit();
    const stored = { _id: 'h', grant_id: 'g', client_id: 'app', scopes: [], issued_at: new Date(), expires_at: new Date() };

    const queries = await captureQueries(async () => {
      await issuer.findRefreshToken('token');
      await issuer.claimRefreshToken(stored); // answered empty: taken for a replay, so the grant is revoked too
      await issuer['purgeExpiredRefreshTokens']();
    });
    expect(queries.map((q) => q.op)).toEqual(['findOne', 'findOneAndUpdate', 'deleteMany', 'deleteMany']);
    expect(unindexedQueries(queries)).toEqual([]);
  });
});
