import { ApiError } from '@plaza/contracts';
import { PictureStore } from '@plaza/pictures';
import { PictureUploads } from './picture-uploads';

/** The smallest whole PNG: 1 × 1, one grey pixel. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==', 'base64');

function uploadsWithStore() {
  const stored = new Set<string>();
  const store = {
    put: async (key: string) => void stored.add(key),
    delete: async (keys: string[]) => keys.forEach((k) => stored.delete(k)),
  } as unknown as PictureStore;
  return { uploads: new PictureUploads(store), stored };
}

describe('PictureUploads.withStaged', () => {
  it('discards the pictures of a write the service refused (4xx)', async () => {
    const { uploads, stored } = uploadsWithStore();
    await expect(uploads.withStaged('note', [{ number: 1, bytes: PNG } as never], async () => {
      throw new ApiError('target_not_found');
    })).rejects.toMatchObject({ code: 1006 });
    expect(stored.size).toBe(0);
  });

  it('keeps them when the answer was lost (5xx): the write may be stored, and the service settles them', async () => {
    const { uploads, stored } = uploadsWithStore();
    await expect(uploads.withStaged('note', [{ number: 1, bytes: PNG } as never], async () => {
      throw new ApiError('service_timeout');
    })).rejects.toMatchObject({ code: 1102 });
    expect(stored.size).toBe(1);
  });
});
