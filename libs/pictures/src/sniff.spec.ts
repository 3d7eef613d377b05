import { crc32, deflateSync } from 'node:zlib';
import { MAX_PICTURE_BYTES, sniffPicture } from './sniff';
import { PictureSigner } from './signing';

const u16be = (n: number) => Buffer.from([n >> 8, n & 255]);
const u32be = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** A PNG chunk with its length and CRC; `crc` replaces the right one. */
function chunk(type: string, data: Buffer, crc?: number): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  return Buffer.concat([u32be(data.length), typed, u32be(crc ?? crc32(typed))]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function ihdr(width: number, height: number, depth = 8, colour = 2): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = depth;
  data[9] = colour;
  return chunk('IHDR', data);
}

/**
 * A whole RGB PNG of `width × height`: its image data is every row (a filter byte and black
 * pixels) deflated, or, for a bomb, one deflated byte (a whole file that decodes to nothing useful).
 */
function png(width: number, height: number, ...extra: Buffer[]): Buffer {
  const raw = width * height <= 10_000 ? Buffer.alloc(height * (1 + 3 * width)) : Buffer.alloc(1);
  return Buffer.concat([PNG_SIGNATURE, ihdr(width, height), ...extra, chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * A whole 1 × 1 grey baseline JPEG, the smallest a decoder takes: SOI; a quantisation table;
 * the frame (SOF0, one component); a DC and an AC Huffman table of one code each; the scan (SOS)
 * whose one byte codes "DC difference 0, end of block"; EOI. Java's ImageIO decodes it.
 */
function jpeg(width = 1, height = 1, { frame = 0xc0, scan = Buffer.from([0x3f]) } = {}): Buffer {
  const segment = (marker: number, data: Buffer) => Buffer.concat([Buffer.from([0xff, marker]), u16be(data.length + 2), data]);
  const oneCodeTable = (classAndId: number) => Buffer.concat([Buffer.from([classAndId, 1]), Buffer.alloc(15), Buffer.from([0])]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
    segment(frame, Buffer.concat([Buffer.from([8]), u16be(height), u16be(width), Buffer.from([1, 1, 0x11, 0])])),
    segment(0xc4, oneCodeTable(0x00)),
    segment(0xc4, oneCodeTable(0x10)),
    segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
    scan,
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** A whole GIF89a: a logical screen of `width × height`, no colour table, one 1 × 1 image at its corner, the trailer. */
function gif(width = 1, height = 1): Buffer {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  const image = Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0]);
  return Buffer.concat([Buffer.from('GIF89a'), screen, image, Buffer.from([0x02, 0x02, 0x44, 0x01, 0x00]), Buffer.from([0x3b])]);
}

/** The 1 × 1 GIF every test suite here uses (a global colour table and a graphic control extension). */
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A whole uncompressed 24-bit BMP of `width × height` (negative: top-down), its rows padded to 4 bytes. */
function bmp(width = 1, height = 1): Buffer {
  const rowBytes = Math.floor((width * 24 + 31) / 32) * 4;
  const size = 54 + rowBytes * Math.abs(height);
  const b = Buffer.alloc(size);
  b.write('BM');
  b.writeUInt32LE(size, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(height, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  return b;
}

/** A whole 8-bit run-length BMP (two palette colours) whose data is only the end-of-bitmap code: a bomb of 64 bytes. */
function rleBmp(width: number, height: number): Buffer {
  const b = Buffer.alloc(64);
  b.write('BM');
  b.writeUInt32LE(64, 2);
  b.writeUInt32LE(62, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(height, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(8, 28);
  b.writeUInt32LE(1, 30); // BI_RLE8
  b.writeUInt32LE(2, 34);
  b.writeUInt32LE(2, 46);
  b.writeUInt32LE(0x00ffffff, 58);
  b[62] = 0;
  b[63] = 1; // end of bitmap
  return b;
}

/** A BITMAPCOREHEADER (OS/2 1.x) BMP of 2 × 1, 24-bit: 16-bit dimensions. */
function coreBmp(): Buffer {
  const b = Buffer.alloc(14 + 12 + 8);
  b.write('BM');
  b.writeUInt32LE(b.length, 2);
  b.writeUInt32LE(26, 10);
  b.writeUInt32LE(12, 14);
  b.writeUInt16LE(2, 18);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt16LE(24, 24);
  return b;
}

const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([30, 0, 0, 0]), Buffer.from('WEBPVP8X'), Buffer.from([10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])]);

const code = (n: number) => expect.objectContaining({ code: n });
const refusedWith = (bytes: Uint8Array, n: number) => expect(() => sniffPicture(bytes)).toThrow(code(n));

/**
 * The first `length` bytes of `picture` as three kinds of view: bytes owning their memory; a view
 * whose memory goes on with the rest of the picture (as a sliced upload's does); and a view whose
 * memory goes on with 0xFF bytes (what Node's shared buffer pool may hold after an upload, read
 * as huge dimensions). Only the first `length` bytes may decide.
 */
function truncations(picture: Buffer, length: number): Uint8Array[] {
  const garbage = Buffer.alloc(picture.length + 64, 0xff);
  picture.copy(garbage, 0, 0, length);
  return [new Uint8Array(picture.subarray(0, length)), picture.subarray(0, length), garbage.subarray(0, length)];
}

const MINIMAL: Array<[string, Buffer, { format: string; width: number; height: number }]> = [
  ['PNG', png(1, 1), { format: 'png', width: 1, height: 1 }],
  ['JPEG', jpeg(), { format: 'jpeg', width: 1, height: 1 }],
  ['GIF', GIF, { format: 'gif', width: 1, height: 1 }],
  ['GIF without a colour table or extension', gif(), { format: 'gif', width: 1, height: 1 }],
  ['BMP', bmp(), { format: 'bmp', width: 1, height: 1 }],
];

describe('sniffPicture: the bytes decide', () => {
  it('accepts PNG and GIF with their dimensions', () => {
    expect(sniffPicture(png(3, 2))).toEqual({ format: 'png', width: 3, height: 2 });
    expect(sniffPicture(GIF)).toEqual({ format: 'gif', width: 1, height: 1 });
  });

  it('rejects another image format with 1008 and bytes that are no image with 1009', () => {
    refusedWith(WEBP, 1008);
    refusedWith(Buffer.from('<?php echo 1; ?> not an image at all'), 1009);
    refusedWith(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>'), 1008);
  });

  it('tells an SVG document (1008) from HTML that merely contains an <svg> tag (1009)', () => {
    const svg = '<?xml version="1.0"?>\n<!-- drawn by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg width="2" height="2"/>';
    refusedWith(Buffer.from(svg), 1008);
    refusedWith(Buffer.from('<html><body><svg width="10" height="10"></svg></body></html>'), 1009);
    refusedWith(Buffer.from('<p>see <svg width="10" height="10"></svg></p>'), 1009);
  });

  it('rejects 3 MiB or more with 1003, and decompression bombs by their pixel count', () => {
    refusedWith(Buffer.alloc(MAX_PICTURE_BYTES + 1), 1003);
    refusedWith(png(100_000, 100_000), 1003);
  });
});

describe('sniffPicture: only a whole picture is a picture (docs/DECISIONS.md, "Hostile input")', () => {
  it.each(MINIMAL)('a minimal whole %s is accepted', (_, picture, sniffed) => {
    expect(sniffPicture(picture)).toEqual(sniffed);
  });

  it.each(MINIMAL)('every truncation of a minimal %s, from 0 bytes to one short of whole, is 400/1009 whatever memory follows it', (_, picture) => {
    for (let length = 0; length < picture.length; length++) {
      // the GIF's trailer may be missing (see below): the file is whole once its image is
      if (picture[0] === 0x47 && length === picture.length - 1) continue;
      for (const view of truncations(picture, length)) {
        expect({ length, outcome: outcomeOf(view) }).toEqual({ length, outcome: 1009 });
      }
    }
  });

  it('a PNG cut to 18, 19 or 20 bytes is 1009 every time, never 1003 (before: image-size read its height from the memory after it)', () => {
    for (const length of [18, 19, 20]) {
      for (const picture of [png(1, 1), png(100_000, 100_000)]) {
        for (let run = 0; run < 20; run++) {
          const memory = Buffer.allocUnsafe(length + 16);
          memory.fill(run * 13 + 1, length);
          picture.copy(memory, 0, 0, length);
          expect(outcomeOf(memory.subarray(0, length))).toBe(1009);
        }
      }
    }
  });

  it('a header-only PNG of 24 bytes (signature, IHDR start) is 1009, not stored (before: accepted)', () => {
    const headerOnly = png(1, 1).subarray(0, 24);
    expect(headerOnly.length).toBe(24);
    refusedWith(new Uint8Array(headerOnly), 1009);
    refusedWith(headerOnly, 1009);
  });

  describe('PNG', () => {
    const idat = chunk('IDAT', deflateSync(Buffer.alloc(4)));
    const iend = chunk('IEND', Buffer.alloc(0));
    it.each([
      ['a whole IHDR and nothing else', Buffer.concat([PNG_SIGNATURE, ihdr(1, 1)])],
      ['no image data', Buffer.concat([PNG_SIGNATURE, ihdr(1, 1), iend])],
      ['no IEND', Buffer.concat([PNG_SIGNATURE, ihdr(1, 1), idat])],
      ['a wrong IHDR CRC', Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr(1, 1).subarray(8, 21), 0), idat, iend])],
      ['a wrong IDAT CRC', Buffer.concat([PNG_SIGNATURE, ihdr(1, 1), chunk('IDAT', deflateSync(Buffer.alloc(4)), 0), iend])],
      ['a chunk before IHDR', Buffer.concat([PNG_SIGNATURE, chunk('tEXt', Buffer.from('a\0b')), ihdr(1, 1), idat, iend])],
      ['two IHDR chunks', Buffer.concat([PNG_SIGNATURE, ihdr(1, 1), ihdr(1, 1), idat, iend])],
      ['0 × 0 pixels', Buffer.concat([PNG_SIGNATURE, ihdr(0, 0), idat, iend])],
      ['an illegal bit depth', Buffer.concat([PNG_SIGNATURE, ihdr(1, 1, 3, 2), idat, iend])],
      ['a palette picture without PLTE', Buffer.concat([PNG_SIGNATURE, ihdr(1, 1, 8, 3), idat, iend])],
      ['image data that is no zlib stream', Buffer.concat([PNG_SIGNATURE, ihdr(1, 1), chunk('IDAT', Buffer.from('not zlib')), iend])],
      ['an unknown critical chunk', Buffer.concat([PNG_SIGNATURE, ihdr(1, 1), chunk('ABCD', Buffer.alloc(1)), idat, iend])],
      ['a chunk longer than the file', Buffer.concat([PNG_SIGNATURE, ihdr(1, 1), u32be(0x7fffffff), Buffer.from('IDAT'), Buffer.alloc(8)])],
    ])('%s: 1009', (_, bytes) => {
      refusedWith(bytes, 1009);
    });

    it('takes an ancillary chunk with a wrong CRC (as libpng does), a palette picture with its PLTE, and bytes after IEND', () => {
      expect(sniffPicture(png(2, 2, chunk('tEXt', Buffer.from('k\0v'), 0))).width).toBe(2);
      const palette = Buffer.concat([PNG_SIGNATURE, ihdr(1, 1, 8, 3), chunk('PLTE', Buffer.alloc(3)), idat, iend]);
      expect(sniffPicture(palette).format).toBe('png');
      expect(sniffPicture(Buffer.concat([png(1, 1), Buffer.from('<html>trailing</html>')])).format).toBe('png');
    });
  });

  describe('JPEG', () => {
    const whole = jpeg();
    const sos = whole.indexOf(Buffer.from([0xff, 0xda]));
    it.each([
      ['SOI alone', Buffer.from([0xff, 0xd8])],
      ['SOI and EOI', Buffer.from([0xff, 0xd8, 0xff, 0xd9])],
      ['no scan', Buffer.concat([whole.subarray(0, sos), Buffer.from([0xff, 0xd9])])],
      ['no EOI', whole.subarray(0, whole.length - 2)],
      ['no frame header', Buffer.concat([Buffer.from([0xff, 0xd8]), whole.subarray(sos)])],
      ['a lossless frame (SOF3)', jpeg(1, 1, { frame: 0xc3 })],
      ['an arithmetic-coded frame (SOF9)', jpeg(1, 1, { frame: 0xc9 })],
      ['a segment longer than the file', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0xff, 0xff, 0, 0])],
      ['bytes where a marker should be', Buffer.concat([Buffer.from([0xff, 0xd8, 0x00]), whole.subarray(2)])],
    ])('%s: 1009', (_, bytes) => {
      refusedWith(bytes, 1009);
    });

    it('walks stuffed bytes, restart markers and fill bytes in a scan, and takes bytes after EOI (motion photos)', () => {
      const scan = Buffer.from([0x3f, 0xff, 0x00, 0x12, 0xff, 0xd0, 0x34, 0xff, 0xff]);
      expect(sniffPicture(jpeg(3, 2, { scan }))).toEqual({ format: 'jpeg', width: 3, height: 2 });
      expect(sniffPicture(Buffer.concat([whole, Buffer.from('ftypmp42 and a video after EOI')])).format).toBe('jpeg');
    });
  });

  describe('GIF', () => {
    it.each([
      ['a header and the trailer, no image', Buffer.concat([gif().subarray(0, 13), Buffer.from([0x3b])])],
      ['an image descriptor without its data', gif().subarray(0, 23)],
      ['data sub-blocks without their end', gif().subarray(0, 27)],
      ['a block of an unknown kind', Buffer.concat([gif().subarray(0, 13), Buffer.from([0x99]), gif().subarray(13)])],
      ['a colour table longer than the file', Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0x87, 0, 0]), Buffer.alloc(30)])],
    ])('%s: 1009', (_, bytes) => {
      refusedWith(bytes, 1009);
    });

    it('takes a GIF that ends right after its image without the trailer (old encoders wrote them; decoders show them)', () => {
      expect(sniffPicture(gif().subarray(0, gif().length - 1))).toEqual({ format: 'gif', width: 1, height: 1 });
    });
  });

  describe('BMP', () => {
    it.each([
      ['a file size larger than the file (truncated)', (() => { const b = bmp(4, 4); return b.subarray(0, b.length - 1); })()],
      ['a file size smaller than its pixels', (() => { const b = Buffer.from(bmp(4, 4)); b.writeUInt32LE(54, 2); return b; })()],
      ['a header claiming 30 000 × 30 000 without the pixels', (() => { const b = bmp(1, 1); b.writeInt32LE(30_000, 18); b.writeInt32LE(30_000, 22); return b; })()],
      ['the same, top-down', (() => { const b = bmp(1, 1); b.writeInt32LE(30_000, 18); b.writeInt32LE(-30_000, 22); return b; })()],
      ['an unknown header size', (() => { const b = Buffer.from(bmp(1, 1)); b.writeUInt32LE(41, 14); return b; })()],
      ['an embedded PNG (BI_PNG)', (() => { const b = Buffer.from(bmp(1, 1)); b.writeUInt32LE(5, 30); return b; })()],
      ['run-length data without its end', (() => { const b = rleBmp(2, 2); b[63] = 0; return b; })()],
      ['a top-down run-length picture', (() => { const b = rleBmp(2, 2); b.writeInt32LE(-2, 22); return b; })()],
      ['0 × 0 pixels', bmp(0, 0)],
    ])('%s: 1009', (_, bytes) => {
      refusedWith(bytes, 1009);
    });

    it('takes top-down and bottom-up pictures, run-length pictures, the OS/2 core header (16-bit dimensions) and bytes after the stated size', () => {
      expect(sniffPicture(bmp(3, -2))).toEqual({ format: 'bmp', width: 3, height: 2 });
      expect(sniffPicture(rleBmp(5, 4))).toEqual({ format: 'bmp', width: 5, height: 4 });
      expect(sniffPicture(coreBmp())).toEqual({ format: 'bmp', width: 2, height: 1 });
      expect(sniffPicture(Buffer.concat([bmp(1, 1), Buffer.alloc(10)])).format).toBe('bmp');
    });
  });

  it('a whole picture claiming over 50 megapixels is 1003; only a whole one: its header alone is 1009', () => {
    const bombs = [png(100_000, 100_000), png(1, 2_000_000_000), png(7072, 7072), jpeg(65_500, 65_500), gif(65_535, 65_535), rleBmp(30_000, 30_000)];
    for (const bomb of bombs) {
      expect(bomb.length).toBeLessThan(200);
      refusedWith(bomb, 1003);
    }
    expect(sniffPicture(png(7071, 7071))).toEqual({ format: 'png', width: 7071, height: 7071 });
    refusedWith(png(100_000, 100_000).subarray(0, 33), 1009);
  });
});

function outcomeOf(bytes: Uint8Array): number | 'accepted' {
  try {
    sniffPicture(bytes);
    return 'accepted';
  } catch (err) {
    return (err as { code: number }).code;
  }
}

describe('PictureSigner', () => {
  const signer = new PictureSigner('a-secret-of-sixteen+');
  it('accepts its own signature until it expires', () => {
    const e = 2_000_000_000;
    const ck = signer.sign('note-abc', e);
    expect(() => signer.verify('note-abc', ck, String(e), e - 1)).not.toThrow();
    expect(() => signer.verify('note-abc', ck, String(e), e + 1)).toThrow(expect.objectContaining({ code: 1011 }));
  });

  it('rejects a wrong, missing or foreign check value with 1010', () => {
    const e = 2_000_000_000;
    expect(() => signer.verify('note-abc', 'x'.repeat(22), String(e), 0)).toThrow(expect.objectContaining({ code: 1010 }));
    expect(() => signer.verify('note-abc', undefined, String(e), 0)).toThrow(expect.objectContaining({ code: 1010 }));
    expect(() => signer.verify('note-other', signer.sign('note-abc', e), String(e), 0)).toThrow(expect.objectContaining({ code: 1010 }));
    expect(() => signer.verify('note-abc', signer.sign('note-abc', e), String(e + 1), 0)).toThrow(expect.objectContaining({ code: 1010 }));
  });
});
