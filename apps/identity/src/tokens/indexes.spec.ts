import { captureQueries, unindexedQueries } from '@plaza/service-kit';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose, { Model } from 'mongoose';
import type { NatsConnection } from 'nats';
import { AppsRepository, StoredApp } from '../apps/apps.repository';
import { IdentityConfig } from '../config/identity.config';
import { LoginService } from '../oauth/login.service';
import { OAuthService } from '../oauth/oauth.service';
import { UserDocument, UserNameDocument, UserNameSchema, UserSchema } from '../users/user.schema';
import { UsersRepository } from '../users/users.repository';
import { TokenIssuer } from './token-issuer';
import { AuthorizationCodeDocument, AuthorizationCodeSchema, RefreshTokenDocument, RefreshTokenSchema } from './token.schemas';

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

/** Authorization codes: found and claimed by `_id`, expired ones (used ones included) purged by `expires_at`. */
describe('authorization-code queries use indexes on MongoDB', () => {
  it('exchange, purge the expired', async () => {
    const codes = new mongoose.Mongoose().model(AuthorizationCodeDocument.name, AuthorizationCodeSchema) as unknown as Model<AuthorizationCodeDocument>;
    const app = { _id: 'app', secret_hash: undefined } as unknown as StoredApp;
    const apps = { byClientId: async () => app, secretMatches: () => true } as unknown as AppsRepository;
    const service = new OAuthService(apps, {} as UsersRepository, {} as LoginService, {} as TokenIssuer, { now: () => new Date() }, codes);

    const queries = await captureQueries(async () => {
      // answered empty: an unknown code (400/118)
      await service.token({ grant_type: 'authorization_code', client_id: 'app', code: 'c', redirect_uri: 'r' }).catch(() => undefined);
      await service['purgeExpiredCodes']();
    });
    expect(queries.map((q) => q.op)).toEqual(['findOne', 'deleteMany']);
    expect(unindexedQueries(queries)).toEqual([]);
  });
});

/** User search: the page and its total both come from the `search_terms` index (docs/api/user.md). */
describe('user search uses an index on MongoDB', () => {
  it('finds a page sorted by id and counts the matches', async () => {
    const m = new mongoose.Mongoose();
    const users = m.model(UserDocument.name, UserSchema) as unknown as Model<UserDocument>;
    const names = m.model(UserNameDocument.name, UserNameSchema) as unknown as Model<UserNameDocument>;
    const repository = new UsersRepository(users, names);
    const queries = await captureQueries(() => repository.search('李雷 lei', 20, 10));
    expect(queries.map((q) => q.op).sort()).toEqual(['countDocuments', 'find']);
    expect(unindexedQueries(queries)).toEqual([]);
  });
});
