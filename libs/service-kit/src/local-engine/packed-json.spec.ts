import { packJson, unpackJson } from './packed-json';

describe('packJson', () => {
  const view = { _id: '1292052', title: '肖申克的救赎', summary: '希望让人自由。'.repeat(200), rating: { average: 9.7, stars: '50' }, tags: ['剧情', '犯罪'] };

  it('gives back the document it packed', () => {
    expect(unpackJson(packJson(view))).toEqual(view);
  });

  it('holds no more memory than the packed bytes (not zlib’s whole output chunk)', () => {
    const packed = packJson(view);
    expect(packed.length).toBeLessThan(JSON.stringify(view).length / 4);
    // a small buffer is a slice of Node's shared 8 KiB pool; zlib's own chunk would be 16 KiB
    expect(packed.buffer.byteLength).toBeLessThanOrEqual(8192);
  });
});
