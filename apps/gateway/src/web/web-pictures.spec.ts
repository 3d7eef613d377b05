import { crc32, inflateSync } from 'node:zlib';
import { PICTURE_ROUTES, placeholder, placeholderPng } from './web-pictures';

/** The chunks of a PNG, each with its CRC checked. */
function chunks(png: Buffer): Array<{ type: string; data: Buffer; crcOk: boolean }> {
  const found = [];
  let at = 8;
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    found.push({ type, data, crcOk: crc32(png.subarray(at + 4, at + 8 + length)) === png.readUInt32BE(at + 8 + length) });
    at += 12 + length;
  }
  return found;
}

describe('placeholder pictures', () => {
  it('are well-formed 8-bit greyscale PNGs of their size: the glyph darker than the background', () => {
    const kind = { glyph: 'picture' as const, width: 60, height: 40 };
    const png = placeholderPng(kind);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const parts = chunks(png);
    expect(parts.map((c) => [c.type, c.crcOk])).toEqual([['IHDR', true], ['IDAT', true], ['IEND', true]]);
    const header = parts[0].data;
    expect([header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]).toEqual([60, 40, 8, 0]);
    const rows = inflateSync(parts[1].data);
    expect(rows.length).toBe((60 + 1) * 40);
    const pixel = (x: number, y: number) => rows[y * 61 + 1 + x];
    expect(pixel(0, 0)).toBe(233);
    // the glyph is a centred square of 24 pixels: the big mountain's foot
    expect(pixel(25, 29)).toBe(173);
  });

  it('are drawn once per size, with a strong ETag of their bytes', () => {
    const [route] = PICTURE_ROUTES;
    const first = placeholder(route.kind);
    expect(placeholder(route.kind)).toBe(first);
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });

  it('cover every address the services derive, each route once', () => {
    const paths = PICTURE_ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toEqual(expect.arrayContaining([
      '/movie/img/subject/s/:name', '/movie/img/subject/m/:name', '/movie/img/subject/l/:name',
      '/movie/img/celebrity/s/:name', '/movie/img/celebrity/m/:name', '/movie/img/celebrity/l/:name',
      '/movie/img/photo/icon/:name', '/movie/img/photo/image/:name', '/movie/img/photo/thumb/:name', '/movie/img/photo/cover/:name',
      '/pics/event/:id/large.jpg', '/pics/event/:id/hlarge.jpg', '/pics/event/:id/lmobile.jpg', '/avatars/:name',
    ]));
  });
});
