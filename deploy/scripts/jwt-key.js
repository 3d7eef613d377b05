#!/usr/bin/env node
'use strict';
/**
 * Makes an Ed25519 signing key for identity (JWT_KEYS_DIR holds `<kid>.pem` files, PKCS#8 PEM).
 *
 *   node deploy/scripts/jwt-key.js DIR           a key only if DIR has none (compose `keys` service)
 *   node deploy/scripts/jwt-key.js DIR --new     always add a new key (rotation); prints its kid
 *
 * The kid is `k` + the UTC time (yyyyMMddHHmmss), the format identity uses for the keys it makes
 * outside production, so the newest key also sorts last (the default active key).
 * `openssl genpkey -algorithm ed25519 -out DIR/<kid>.pem` makes an equivalent file.
 */
const { generateKeyPairSync } = require('node:crypto');
const { existsSync, mkdirSync, readdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.argv[2];
const always = process.argv.includes('--new');
if (!dir) {
  process.stderr.write('usage: jwt-key.js DIR [--new]\n');
  process.exit(2);
}
mkdirSync(dir, { recursive: true, mode: 0o700 });
const existing = readdirSync(dir).filter((f) => f.endsWith('.pem'));
if (existing.length > 0 && !always) {
  process.stdout.write(`${dir} already has ${existing.join(', ')}: nothing to do\n`);
  process.exit(0);
}
const kid = `k${new Date().toISOString().replace(/[^0-9]/g, '').slice(0, 14)}`;
const file = join(dir, `${kid}.pem`);
if (existsSync(file)) {
  process.stderr.write(`${file} exists; wait a second and run again\n`);
  process.exit(1);
}
const { privateKey } = generateKeyPairSync('ed25519');
writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
process.stdout.write(`${kid}\n`);
