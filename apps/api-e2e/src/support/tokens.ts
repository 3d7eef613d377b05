import { createPrivateKey, generateKeyPairSync, KeyObject } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { stackInfo } from './stack-info';

/** The stack's real signing key (from its data folder), for crafting expired or tampered tokens. */
export function stackSigningKey(): { kid: string; key: KeyObject } {
  const dir = join(stackInfo().dataDir, 'keys');
  const file = readdirSync(dir).filter((f) => f.endsWith('.pem')).sort().pop()!;
  return { kid: file.replace(/\.pem$/, ''), key: createPrivateKey(readFileSync(join(dir, file))) };
}

export interface CraftOptions {
  sub?: string;
  uid?: string;
  scope?: string;
  tier?: string;
  iat?: number;
  exp?: number;
  aud?: string;
  iss?: string;
  key?: KeyObject;
  kid?: string;
  jti?: string;
}

/** Signs a token like identity does, with any claim changed. */
export async function craftToken(options: CraftOptions = {}): Promise<string> {
  const real = stackSigningKey();
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ cid: 'test-premium', tier: options.tier ?? 'premium', scope: options.scope ?? 'book_basic_r', uid: options.uid ?? 'alice', ep: 0 })
    .setProtectedHeader({ alg: 'EdDSA', kid: options.kid ?? real.kid, typ: 'at+jwt' })
    .setIssuer(options.iss ?? 'plaza-identity')
    .setAudience(options.aud ?? 'plaza-api')
    .setSubject(options.sub ?? '1001')
    .setJti(options.jti ?? `crafted-${Math.random().toString(36).slice(2)}`)
    .setIssuedAt(options.iat ?? now)
    .setExpirationTime(options.exp ?? now + 600)
    .sign(options.key ?? real.key);
}

export function foreignKey(): KeyObject {
  return generateKeyPairSync('ed25519').privateKey;
}

/** An unsigned token (`alg: none`), which must never be accepted; `claims` replace the defaults. */
export function unsignedToken(claims: Record<string, unknown> = {}): string {
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64({ sub: '1001', uid: 'alice', cid: 'test-premium', tier: 'premium', scope: 'book_basic_r', jti: 'x', iat: now, exp: now + 600, iss: 'plaza-identity', aud: 'plaza-api', ...claims })}.`;
}
