import { createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: Record<string, unknown>;
}

export interface SigningKeys {
  active: SigningKey;
  all: SigningKey[];
}

/**
 * Ed25519 keys from a folder of PEM files (`<kid>.pem`), as a Kubernetes Secret mounts them.
 * Every key's public half is published, so tokens signed by a retired key stay valid until they
 * expire: rotation is "add a key, make it active, remove the old one a token lifetime later".
 * Outside production an empty folder gets a fresh key, so a laptop needs no setup.
 */
export function loadSigningKeys(dir: string, activeKid: string | undefined, allowGenerate: boolean): SigningKeys {
  if (!existsSync(dir) || readdirSync(dir).filter((f) => f.endsWith('.pem')).length === 0) {
    if (!allowGenerate) throw new Error(`no signing keys in ${dir} (JWT_KEYS_DIR)`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { privateKey } = generateKeyPairSync('ed25519');
    const kid = `k${new Date().toISOString().replace(/[^0-9]/g, '').slice(0, 14)}`;
    writeFileSync(join(dir, `${kid}.pem`), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  }
  const all = readdirSync(dir)
    .filter((f) => f.endsWith('.pem'))
    .sort()
    .map((file) => {
      const kid = file.slice(0, -'.pem'.length);
      const privateKey = createPrivateKey(readFileSync(join(dir, file)));
      if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`${file} is not an Ed25519 key`);
      const publicJwk = { ...createPublicKey(privateKey).export({ format: 'jwk' }), kid, alg: 'EdDSA', use: 'sig' };
      return { kid, privateKey, publicJwk };
    });
  const active = activeKid ? all.find((k) => k.kid === activeKid) : all[all.length - 1];
  if (!active) throw new Error(`JWT_ACTIVE_KID ${activeKid} is not among the keys in ${dir}`);
  return { active, all };
}
