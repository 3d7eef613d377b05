import { PictureFormat } from '@plaza/contracts';
import { PictureStore } from './picture-store';
import { PictureSigner } from './signing';

/**
 * Addresses put in `photos`: `<PUBLIC_API_URL>/v2/picture/<key>.<ext>`, with `ck`/`e` added for
 * pictures that only some users may see (private or friends-only notes, private annotations).
 */
export class PictureUrls {
  constructor(
    private readonly publicApiUrl: string,
    private readonly signer: PictureSigner,
    private readonly signedTtlSeconds = 3600,
  ) {}

  url(key: string, format: PictureFormat, isPublic: boolean, nowSeconds = Math.floor(Date.now() / 1000)): string {
    const base = `${this.publicApiUrl.replace(/\/$/, '')}/v2/picture/${PictureStore.fileName(key, format)}`;
    if (isPublic) return base;
    // expiry rounded up to the hour: addresses stay stable (cacheable) within an hour
    const expiresAt = Math.ceil((nowSeconds + this.signedTtlSeconds) / 3600) * 3600;
    return `${base}?ck=${this.signer.sign(key, expiresAt)}&e=${expiresAt}`;
  }
}
