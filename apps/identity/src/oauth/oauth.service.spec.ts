import { AuthorizeDecision, TokenRequest, TokenResponse } from '@plaza/contracts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Model } from 'mongoose';
import type { NatsConnection } from 'nats';
import { AppsRepository, StoredApp } from '../apps/apps.repository';
import { IdentityConfig } from '../config/identity.config';
import { TokenIssuer } from '../tokens/token-issuer';
import { AuthorizationCodeDocument, RefreshTokenDocument } from '../tokens/token.schemas';
import { UsersRepository } from '../users/users.repository';
import { LoginService } from './login.service';
import { OAuthService } from './oauth.service';

// The authorization-code grant with its neighbours stubbed (the two collections in memory, the
// revocation bucket a recorder), as token-issuer.spec.ts does. Through the real stack:
// apps/api-e2e/src/platform/oauth.e2e-spec.ts ("a replayed code revokes the tokens of its first exchange").

const REDIRECT = 'http://127.0.0.1:9/callback';
const APP = { _id: 'app', name: 'App', tier: 'premium', scopes: ['book_basic_r'], redirect_uris: [REDIRECT], secret_hash: 'x', trusted: false, blocked: false } as unknown as StoredApp;
const OTHER = { ...APP, _id: 'other' } as StoredApp;
const USER = { _id: '100001', uid: 'ahmed', token_epoch: 0 };

/** A mongoose query's `.lean().exec()` and `.exec()`, answering `value`. */
const query = <T>(value: () => T | Promise<T>) => ({ exec: async () => value(), lean: () => ({ exec: async () => value() }) });

/** The payload of a JWT, unverified. */
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as Record<string, unknown>;

describe('OAuthService: a replayed authorization code (RFC 6749 section 4.1.2)', () => {
  let keysDir: string;
  let now: Date;
  let codes: Map<string, AuthorizationCodeDocument>;
  let refreshTokens: Map<string, RefreshTokenDocument>;
  let kvPut: jest.Mock;
  let refreshModel: { create: jest.Mock; deleteMany: jest.Mock; findOneAndUpdate: jest.Mock; findById: jest.Mock };
  let codeModel: { create: jest.Mock; findById: jest.Mock; findOneAndUpdate: jest.Mock; updateOne: jest.Mock; deleteMany: jest.Mock };
  let service: OAuthService;

  beforeEach(async () => {
    keysDir = mkdtempSync(join(tmpdir(), 'plaza-keys-'));
    now = new Date('2026-11-25T00:00:00Z');
    codes = new Map();
    refreshTokens = new Map();
    kvPut = jest.fn(async () => 1);
    refreshModel = {
      create: jest.fn(async (doc: RefreshTokenDocument) => refreshTokens.set(doc._id, doc)),
      findById: jest.fn((id: string) => query(() => refreshTokens.get(id) ?? null)),
      findOneAndUpdate: jest.fn(),
      deleteMany: jest.fn((filter: { grant_id?: string }) =>
        query(() => {
          for (const [id, doc] of refreshTokens) if (filter.grant_id !== undefined && doc.grant_id === filter.grant_id) refreshTokens.delete(id);
          return { deletedCount: 0 };
        }),
      ),
    };
    codeModel = {
      create: jest.fn(async (doc: AuthorizationCodeDocument) => codes.set(doc._id, doc)),
      findById: jest.fn((id: string) => query(() => codes.get(id) ?? null)),
      // a query, then a write back, as FerretDB v1 runs an update: two at once both see the code unused
      findOneAndUpdate: jest.fn((filter: { _id: string }, update: { $set: Partial<AuthorizationCodeDocument> }) =>
        query(async () => {
          const doc = codes.get(filter._id);
          await new Promise((resolve) => setImmediate(resolve));
          if (!doc || doc.used_at) return null;
          codes.set(doc._id, { ...doc, ...update.$set });
          return doc;
        }),
      ),
      updateOne: jest.fn((filter: { _id: string }, update: { $set: Partial<AuthorizationCodeDocument> }) =>
        query(() => {
          const doc = codes.get(filter._id);
          if (doc) codes.set(doc._id, { ...doc, ...update.$set });
          return { modifiedCount: doc ? 1 : 0 };
        }),
      ),
      deleteMany: jest.fn(() => query(() => ({ deletedCount: 0 }))),
    };
    const nats = { jetstream: () => ({ views: { kv: async () => ({ put: kvPut }) } }) } as unknown as NatsConnection;
    const config = Object.assign(new IdentityConfig(), { JWT_KEYS_DIR: keysDir, NODE_ENV: 'test', ACCESS_TOKEN_TTL: 3600, REFRESH_TOKEN_TTL_DAYS: 30 });
    const clock = { now: () => now };
    const issuer = new TokenIssuer(config, nats, clock, refreshModel as unknown as Model<RefreshTokenDocument>);
    await issuer.onModuleInit();
    const apps = { byClientId: async (id: string) => ({ app: APP, other: OTHER })[id] ?? null, secretMatches: (_: StoredApp, secret: string) => secret === 'secret' };
    const users = { byId: async (id: string) => (id === USER._id ? USER : null) };
    const login = { authenticate: async () => USER };
    service = new OAuthService(
      apps as unknown as AppsRepository,
      users as unknown as UsersRepository,
      login as unknown as LoginService,
      issuer,
      clock,
      codeModel as unknown as Model<AuthorizationCodeDocument>,
    );
  });

  afterEach(() => rmSync(keysDir, { recursive: true, force: true }));

  async function approve(): Promise<string> {
    const decision = { client_id: 'app', redirect_uri: REDIRECT, response_type: 'code', scope: 'book_basic_r', decision: 'approve', username: 'ahmed', password: 'p' } as AuthorizeDecision;
    const { redirect } = await service.decideAuthorize(decision);
    return new URL(redirect).searchParams.get('code') ?? '';
  }

  const exchange = (code: string, overrides: Partial<TokenRequest> = {}): Promise<TokenResponse> =>
    service.token({ grant_type: 'authorization_code', client_id: 'app', client_secret: 'secret', code, redirect_uri: REDIRECT, ...overrides } as TokenRequest);

  const theCode = () => [...codes.values()][0];

  it('opens the grant chosen at approval: the access token carries it as gid, the refresh token as grant_id', async () => {
    const code = await approve();
    const grantId = theCode().grant_id;
    expect(grantId).toEqual(expect.any(String));
    const tokens = await exchange(code);
    expect(claimsOf(tokens.access_token).gid).toBe(grantId);
    expect([...refreshTokens.values()].map((t) => t.grant_id)).toEqual([grantId]);
    expect(theCode().used_at).toEqual(now);
    expect(kvPut).not.toHaveBeenCalled();
  });

  it('answers a replay 400/118 and revokes the grant of the first exchange: its access tokens (grant.<id>) and its refresh tokens', async () => {
    const code = await approve();
    const grantId = String(theCode().grant_id);
    await exchange(code);
    expect(refreshTokens.size).toBe(1);

    await expect(exchange(code)).rejects.toMatchObject({ code: 118, status: 400 });
    expect(kvPut).toHaveBeenCalledWith(`grant.${grantId}`, expect.any(Uint8Array));
    expect(refreshModel.deleteMany).toHaveBeenCalledWith({ grant_id: grantId });
    expect(refreshTokens.size).toBe(0);
    // a third try is a replay too
    await expect(exchange(code)).rejects.toMatchObject({ code: 118 });
  });

  it('lets one of two concurrent exchanges through; the other is a replay and revokes what the first got, its refresh token too', async () => {
    const code = await approve();
    const results = await Promise.allSettled([exchange(code), exchange(code)]);
    const refusals = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    // one replay at least; the first exchange too, if it saw the replay before it answered
    expect(refusals.length).toBeGreaterThanOrEqual(1);
    for (const refusal of refusals) expect(refusal.reason).toMatchObject({ code: 118 });
    expect(kvPut).toHaveBeenCalledWith(`grant.${theCode().grant_id}`, expect.any(Uint8Array));
    expect(refreshTokens.size).toBe(0);
  });

  it('a replay while the first exchange stores its refresh token: that refresh token is revoked too, and the first exchange refused', async () => {
    const code = await approve();
    const store = refreshModel.create.getMockImplementation() as (doc: RefreshTokenDocument) => Promise<unknown>;
    let replay: Promise<unknown> | undefined;
    refreshModel.create.mockImplementationOnce(async (doc: RefreshTokenDocument) => {
      // the replay runs to its end (marked, grant revoked: no refresh token yet) before this one is stored
      replay = exchange(code).catch((err: unknown) => err);
      await replay;
      return store(doc);
    });
    await expect(exchange(code)).rejects.toMatchObject({ code: 118 });
    expect(await replay).toMatchObject({ code: 118 });
    expect(refreshTokens.size).toBe(0);
    expect(kvPut).toHaveBeenCalledTimes(2);
  });

  it("revokes nothing for another app's attempt with the code (it is not that app's to spend or to revoke)", async () => {
    const code = await approve();
    await exchange(code);
    await expect(exchange(code, { client_id: 'other' })).rejects.toMatchObject({ code: 118 });
    expect(kvPut).not.toHaveBeenCalled();
    expect(refreshTokens.size).toBe(1);
  });

  it('a failed exchange consumes the code too: the next try is a replay (400/118)', async () => {
    const code = await approve();
    await expect(exchange(code, { redirect_uri: 'http://127.0.0.1:9/other' })).rejects.toMatchObject({ code: 117 });
    await expect(exchange(code)).rejects.toMatchObject({ code: 118 });
  });

  it('an expired code is refused (400/118); expired codes, used ones included, are deleted when codes are issued, at most once an hour', async () => {
    const code = await approve();
    expect(codeModel.deleteMany).toHaveBeenCalledWith({ expires_at: { $lte: now } });
    now = new Date(now.getTime() + 601_000);
    await expect(exchange(code)).rejects.toMatchObject({ code: 118 });
    await approve();
    expect(codeModel.deleteMany).toHaveBeenCalledTimes(1);
    now = new Date(now.getTime() + 3600_000);
    await approve();
    expect(codeModel.deleteMany).toHaveBeenCalledTimes(2);
  });
});
