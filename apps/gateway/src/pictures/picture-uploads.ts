import { ApiError, PictureRef } from '@plaza/contracts';
import { PictureStore, sniffPicture } from '@plaza/pictures';
import { UploadedFile } from './multipart-body';

/**
 * Checks and stores the pictures of one write before the write is sent to its service, and
 * removes them again if the service refuses the write, so a refused write leaves nothing behind.
 * (A crash between the two, or a lost answer, is covered by each service sweeping stale staged
 * pictures.)
 */
export class PictureUploads {
  constructor(private readonly store: PictureStore) {}

  /** All pictures are checked before any is stored: one bad picture rejects the request untouched. */
  async stage(area: string, files: Array<UploadedFile & { number: number }>): Promise<PictureRef[]> {
    const numbers = new Set<number>();
    const checked = files.map((file) => {
      if (numbers.has(file.number)) throw new ApiError('invalid_args', `picture ${file.number} given twice`);
      numbers.add(file.number);
      return { file, sniffed: sniffPicture(file.bytes) };
    });
    const refs: PictureRef[] = [];
    try {
      for (const { file, sniffed } of checked) {
        const key = PictureStore.newKey(area);
        await this.store.put(key, file.bytes, { area, format: sniffed.format, public: false, staged: true });
        refs.push({ number: file.number, key, format: sniffed.format, size: file.bytes.length, width: sniffed.width, height: sniffed.height });
      }
    } catch (err) {
      await this.discard(refs);
      throw err instanceof ApiError ? err : new ApiError('service_unavailable', 'picture storage unavailable');
    }
    return refs;
  }

  async discard(refs: PictureRef[]): Promise<void> {
    await this.store.delete(refs.map((r) => r.key)).catch(() => undefined);
  }

  /**
   * Stages the pictures, runs the write, and discards the pictures when the service refused it.
   * A write whose answer was lost (a timeout, the service gone: 5xx) may have been stored, so its
   * pictures stay staged: the service's repair journal keeps the ones its record uses, and its
   * sweep of stale staged pictures removes the others (docs/RELIABILITY.md, "Crash consistency").
   */
  async withStaged<T>(area: string, files: Array<UploadedFile & { number: number }>, write: (refs: PictureRef[]) => Promise<T>): Promise<T> {
    const refs = await this.stage(area, files);
    try {
      return await write(refs);
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) await this.discard(refs);
      throw err;
    }
  }
}

/**
 * The picture number in a part name: `1`, `pic1` (annotations), `image_1`, `image_p_1` (notes);
 * `prefixes` lists the accepted forms. Undefined when the name is not a picture part.
 */
export function pictureNumber(field: string, prefixes: string[]): number | undefined {
  for (const prefix of prefixes) {
    if (field.startsWith(prefix)) {
      const rest = field.slice(prefix.length);
      if (/^[1-9]\d{0,2}$/.test(rest)) return Number(rest);
    }
  }
  return undefined;
}
