import { randomBytes, scrypt as scryptCallback, ScryptOptions, timingSafeEqual } from 'node:crypto';

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/**
 * Password hashing with scrypt, Node's built-in memory-hard KDF (no native add-on to build).
 * The parameters are stored with each hash, so the cost can rise without breaking old hashes.
 */
export async function hashPassword(password: string, costLog2: number): Promise<string> {
  const N = 2 ** costLog2;
  const r = 8;
  const p = 1;
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, 32, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  if (!stored) return false;
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !hash) return false;
  const N = Number(n);
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N, r: Number(r), p: Number(p), maxmem: 256 * N * Number(r) + 1024 * 1024,
  });
  return timingSafeEqual(key, expected);
}
