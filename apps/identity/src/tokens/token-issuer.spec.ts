import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Model } from 'mongoose';
import type { NatsConnection } from 'nats';
import { IdentityConfig } from '../config/identity.config';
import { REFRESH_TOKEN_PURGE_INTERVAL_MS, TokenIssuer } from './token-issuer';
import { RefreshTokenDocument } from './token.schemas';

const exec = <T>(value: T) => ({ exec: async () => value, lean: () => ({ exec: async () => value }) });

describe('TokenIssuer refresh tokens (a neighbouring database and KV bucket stubbed)', () => {
  let keysDir: string;
  let now: Date;
  let stored: Map<string, RefreshTokenDocument>;
  let model: { create: jest.Mock; deleteMany: jest.Mock; deleteOne: jest.Mock; findOneAndUpdate: jest.Mock };
  let kvPut: jest.Mock;
  let issuer: TokenIssuer;

  beforeEach(async () => {
    keysDir = mkdtempSync(join(tmpdir(), 'plaza-keys-'));
    now = new Date('2026-11-25T00:00:00Z');
    stored = new Map();
    model = {
      create: jest.fn(async (doc: RefreshTokenDocument) => stored.set(doc._id, doc)),
      deleteMany: jest.fn(() => exec({ deletedCount: 0 })),
      deleteOne: jest.fn(() => exec({ deletedCount: 1 })),
      // a query, then a write back, as FerretDB v1 runs an update: two at once both see the token unused
      findOneAndUpdate: jest.fn((filter: { _id: string }) => ({
        lean: () => ({
          exec: async () => {
            const doc = stored.get(filter._id);
            await new Promise((resolve) => setImmediate(resolve));
            if (!doc || doc.used_at) return null;
            stored.set(doc._id, { ...doc, used_at: now });
            return doc;
          },
        }),
      })),
    };
    kvPut = jest.fn(async () => 1);
    const nats = { jetstream: () => ({ views: { kv: async () => ({ put: kvPut }) } }) } as unknown as NatsConnection;
    const config = Object.assign(new IdentityConfig(), { JWT_KEYS_DIR: keysDir, NODE_ENV: 'test', ACCESS_TOKEN_TTL: 3600, REFRESH_TOKEN_TTL_DAYS: 30 });
    issuer = new TokenIssuer(config, nats, { now: () => now }, model as unknown as Model<RefreshTokenDocument>);
    await issuer.onModuleInit();
  });

  afterEach(() => rmSync(keysDir, { recursive: true, force: true }));

  const signIn = () => issuer.issue({ userId: '100001', uid: 'ahmed', clientId: 'app', tier: 'premium', scopes: ['book_basic_r'] }, true);

  it('deletes expired refresh tokens when it issues one, at most once per interval', async () => {
    await signIn();
    await signIn();
    expect(model.deleteMany).toHaveBeenCalledTimes(1);
    expect(model.deleteMany).toHaveBeenCalledWith({ expires_at: { $lte: now } });
    now = new Date(now.getTime() + REFRESH_TOKEN_PURGE_INTERVAL_MS);
    await signIn();
    expect(model.deleteMany).toHaveBeenCalledTimes(2);
    expect(model.deleteMany).toHaveBeenLastCalledWith({ expires_at: { $lte: now } });
  });

  it('claims a refresh token once; its replay revokes the whole grant', async () => {
    await signIn();
    const [first] = [...stored.values()];
    expect(first.grant_id).toEqual(expect.any(String));
    expect(await issuer.claimRefreshToken(first)).toMatchObject({ _id: first._id });
    expect(kvPut).not.toHaveBeenCalled();

    expect(await issuer.claimRefreshToken(first)).toBeNull();
    expect(model.deleteMany).toHaveBeenLastCalledWith({ grant_id: first.grant_id });
    expect(kvPut).toHaveBeenCalledWith(`grant.${first.grant_id}`, expect.any(Uint8Array));
    // the access tokens are revoked before the refresh tokens go, so a failure leaves something to revoke again
    expect(kvPut.mock.invocationCallOrder[0]).toBeLessThan(model.deleteMany.mock.invocationCallOrder.at(-1)!);
  });

  it('carries a given grant id as gid with a refresh token or without (a code exchange stays revocable either way)', async () => {
    const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
    const grant = { userId: '100001', uid: 'ahmed', clientId: 'app', tier: 'premium' as const, scopes: ['book_basic_r'], grantId: 'code-grant' };
    const without = await issuer.issue(grant, false);
    expect(without.refresh_token).toBeUndefined();
    expect(claimsOf(without.access_token).gid).toBe('code-grant');
    expect(stored.size).toBe(0);
    const withRefresh = await issuer.issue(grant, true);
    expect(claimsOf(withRefresh.access_token).gid).toBe('code-grant');
    expect([...stored.values()].map((t) => t.grant_id)).toEqual(['code-grant']);
    // no grant id and no refresh token: not part of a grant (client credentials, the implicit grant)
    expect(claimsOf((await issuer.issue({ clientId: 'app', tier: 'premium', scopes: [] }, false)).access_token).gid).toBeUndefined();

    await issuer.revokeGrantById('code-grant');
    expect(kvPut).toHaveBeenCalledWith('grant.code-grant', expect.any(Uint8Array));
    expect(model.deleteMany).toHaveBeenLastCalledWith({ grant_id: 'code-grant' });
  });

  it('lets one of two concurrent claims of a token through', async () => {
    await signIn();
    const [first] = [...stored.values()];
    const results = await Promise.all([issuer.claimRefreshToken(first), issuer.claimRefreshToken(first)]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it('answers null for an expired token without revoking anything', async () => {
    await signIn();
    const [first] = [...stored.values()];
    now = new Date(first.expires_at.getTime() + 1);
    expect(await issuer.claimRefreshToken(first)).toBeNull();
    expect(kvPut).not.toHaveBeenCalled();
  });
});
