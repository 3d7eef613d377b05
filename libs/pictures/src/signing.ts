import { ApiError } from '@plaza/contracts';
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed picture addresses (docs/api/README.md, "Pictures"): `?ck=<check>&e=<expiry, unix seconds>`,
 * where the check is an HMAC of the key and the expiry. Services sign, the gateway verifies,
 * both with PICTURE_SIGNING_KEY; no lookup is needed to verify.
 */
export class PictureSigner {
  constructor(private readonly secret: string) {}

  sign(key: string, expiresAt: number): string {
    return createHmac('sha256', this.secret).update(`${key}:${expiresAt}`).digest('base64url').slice(0, 22);
  }

  /** Throws 403/1010 for a wrong check value and 403/1011 for an expired one. */
  verify(key: string, ck: unknown, e: unknown, nowSeconds = Math.floor(Date.now() / 1000)): void {
    if (typeof ck !== 'string' || typeof e !== 'string' || !/^\d{1,12}$/.test(e)) throw new ApiError('image_wrong_ck');
    const expected = Buffer.from(this.sign(key, Number(e)));
    const given = Buffer.from(ck);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new ApiError('image_wrong_ck');
    if (Number(e) < nowSeconds) throw new ApiError('image_ck_expired');
  }
}
