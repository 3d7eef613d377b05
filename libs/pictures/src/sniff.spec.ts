import { deflateSync } from 'node:zlib';
import { MAX_PICTURE_BYTES, sniffPicture } from './sniff';
import { PictureSigner } from './signing';

function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(10))), chunk('IEND', Buffer.alloc(0))]);
}

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([30, 0, 0, 0]), Buffer.from('WEBPVP8X'), Buffer.from([10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])]);

describe('sniffPicture: the bytes decide', () => {
  it('accepts PNG and GIF with their dimensions', () => {
    expect(sniffPicture(png(3, 2))).toEqual({ format: 'png', width: 3, height: 2 });
    expect(sniffPicture(GIF)).toEqual({ format: 'gif', width: 1, height: 1 });
  });

  it('rejects another image format with 1008 and bytes that are no image with 1009', () => {
    expect(() => sniffPicture(WEBP)).toThrow(expect.objectContaining({ code: 1008 }));
    expect(() => sniffPicture(Buffer.from('<?php echo 1; ?> not an image at all'))).toThrow(expect.objectContaining({ code: 1009 }));
    expect(() => sniffPicture(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>'))).toThrow(expect.objectContaining({ code: 1008 }));
  });

  it('tells an SVG document (1008) from HTML that merely contains an <svg> tag (1009)', () => {
    const svg = '<?xml version="1.0"?>\n<!-- drawn by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg width="2" height="2"/>';
    expect(() => sniffPicture(Buffer.from(svg))).toThrow(expect.objectContaining({ code: 1008 }));
    expect(() => sniffPicture(Buffer.from('<html><body><svg width="10" height="10"></svg></body></html>'))).toThrow(expect.objectContaining({ code: 1009 }));
    expect(() => sniffPicture(Buffer.from('<p>see <svg width="10" height="10"></svg></p>'))).toThrow(expect.objectContaining({ code: 1009 }));
  });

  it('rejects 3 MiB or more with 1003, and decompression bombs by their pixel count', () => {
    expect(() => sniffPicture(Buffer.alloc(MAX_PICTURE_BYTES + 1))).toThrow(expect.objectContaining({ code: 1003 }));
    expect(() => sniffPicture(png(100_000, 100_000))).toThrow(expect.objectContaining({ code: 1003 }));
  });
});

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
