import { BookMessages, IdentityMessages } from '@plaza/contracts';
import type { ServiceBus } from '@plaza/platform';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { Logger } from 'pino';
import { RevocationList } from './revocation-list';
import { TokenVerifier } from './token-verifier';

// What a verified token becomes: who asks, which every message carries, and the scopes the
// gateway alone checks (docs/DECISIONS.md, "Scopes are checked at the gateway").

const ISSUER = 'plaza-test';
const AUDIENCE = 'plaza-api';

async function setup() {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'EdDSA', use: 'sig' };
  const bus = {
    request: jest.fn(async (message: { subject: string }) => {
      if (message.subject !== IdentityMessages.signingKeys.subject) throw new Error(`unexpected ${message.subject}`);
      return { keys: [jwk] };
    }),
  } as unknown as ServiceBus;
  const revocations = { isRevoked: () => false, isAppBlocked: () => false } as unknown as RevocationList;
  const logger = { info: jest.fn(), warn: jest.fn() } as unknown as Logger;
  const verifier = new TokenVerifier(bus, revocations, { issuer: ISSUER, audience: AUDIENCE }, logger);
  const sign = (claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: 'k1', typ: 'at+jwt' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .setJti(`j${Math.random()}`)
      .sign(privateKey);
  return { verifier, sign };
}

describe('TokenVerifier', () => {
  it("gives the token's scopes to the gateway and a caller without them to the messages", async () => {
    const { verifier, sign } = await setup();
    const token = await sign({ sub: '7', uid: 'alice', cid: 'app', tier: 'premium', scope: 'book_basic_r book_basic_w' });
    const principal = await verifier.verify(token);
    expect(principal.scopes).toEqual(['book_basic_r', 'book_basic_w']);
    expect(principal.caller).toEqual({ userId: '7', uid: 'alice', clientId: 'app', tier: 'premium' });
    // what a message to a service carries of it
    const packet = JSON.stringify({ pattern: BookMessages.userCollections.subject, data: { caller: principal.caller } });
    expect(packet).not.toContain('scope');
    // verified once, then answered from memory, the same principal
    expect(verifier.cachedPrincipal(token)).toBe(principal);
  });

  it('an app token without a user, and with no scope, has an empty list', async () => {
    const { verifier, sign } = await setup();
    const principal = await verifier.verify(await sign({ cid: 'app', tier: 'basic', scope: '' }));
    expect(principal).toEqual({ caller: { userId: undefined, uid: undefined, clientId: 'app', tier: 'basic' }, scopes: [] });
  });
});
