import type { PictureFormat } from '@plaza/contracts';
import { crc32 } from 'node:zlib';

/**
 * The structure of the four picture formats the API takes, walked without decoding a pixel.
 *
 * A picture is accepted only when its bytes hold a whole picture of its format: every header
 * complete, the image data present and the format's end marker reached. Everything is read within
 * the upload's own bytes: nothing past its end is ever looked at, so the answer for given bytes is
 * always the same (before this walk, image-size read truncated headers through a DataView that
 * ran on into whatever followed the upload in Node's buffer pool). What a minimally valid picture
 * is, per format:
 * - PNG: the signature; an IHDR chunk first (13 bytes: dimensions from 1, a legal bit depth and
 *   colour type, compression and filter 0, interlace 0 or 1); a PLTE before the image data of a
 *   palette picture; IDAT chunks whose data starts with a zlib header; an IEND chunk. Every chunk
 *   lies within the file, and critical chunks (IHDR, PLTE, IDAT, IEND) carry a correct CRC (as in
 *   libpng, an ancillary chunk's CRC is not held against the picture).
 * - JPEG: SOI; segments whose lengths stay within the file; one frame header (SOF0, SOF1 or SOF2:
 *   baseline, extended or progressive Huffman, the codings browsers decode) with 1 to 4
 *   components; at least one scan (SOS) after it, whose entropy-coded data runs to a marker;
 *   EOI.
 * - GIF: the GIF87a/GIF89a header and logical screen descriptor (with its global colour table, if
 *   it has one); extension blocks and images, each image a descriptor (with its local colour
 *   table), an LZW code size and data sub-blocks ended by an empty one; at least one image; then
 *   the trailer (0x3B), or the end of the file right after an image (old encoders left the
 *   trailer out, and every decoder shows such a file: Python's IDLE ships icons like that).
 * - BMP: the file header and a known info header (12, 40, 52, 56, 108 or 124 bytes) with
 *   positive dimensions, one plane and a bit depth its compression allows (none, RLE8, RLE4,
 *   bit fields); the pixel data present (rows padded to 4 bytes times the height, or run-length
 *   data up to its end-of-bitmap code); the file size in the header covering that data and not
 *   more than the upload's size.
 * Bytes after a picture's end (after IEND, EOI, the GIF trailer, or the size a BMP header states)
 * are ignored, as every decoder ignores them (phones append data after a JPEG's EOI).
 */

/** A picture's dimensions, as its header states them. */
export interface PictureSize {
  width: number;
  height: number;
}

/** Bytes that begin like a picture of an accepted format but are not a whole one (400/1009). */
export class BrokenPicture extends Error {}

/** The accepted format whose signature the bytes begin with, if any. */
export function signatureFormat(bytes: Uint8Array): PictureFormat | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'jpeg';
  if (startsWith(bytes, GIF87A) || startsWith(bytes, GIF89A)) return 'gif';
  if (bytes[0] === 0x42 && bytes[1] === 0x4d) return 'bmp';
  return undefined;
}

/** Walks the picture's structure and returns its dimensions as its header states them; throws BrokenPicture. */
export function readPictureStructure(format: PictureFormat, bytes: Uint8Array): PictureSize {
  switch (format) {
    case 'png':
      return readPng(bytes);
    case 'jpeg':
      return readJpeg(bytes);
    case 'gif':
      return readGif(bytes);
    case 'bmp':
      return readBmp(bytes);
  }
}

// ---- PNG (ISO/IEC 15948, the W3C PNG specification) ----

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Bit depths each colour type allows (PNG specification, table 11.1). */
const PNG_BIT_DEPTHS: Record<number, readonly number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const PNG_PALETTE = 3;
const MAX_PNG_LENGTH = 0x7fffffff;

function readPng(b: Uint8Array): PictureSize {
  let offset = PNG_SIGNATURE.length;
  let size: PictureSize | undefined;
  let colourType = -1;
  let palette = false;
  let imageData = false;
  const zlibHeader: number[] = [];
  for (;;) {
    need(b, offset + 8, 'PNG chunk header');
    const length = u32be(b, offset);
    if (length > MAX_PNG_LENGTH) throw new BrokenPicture('PNG chunk length out of range');
    const type = ascii(b, offset + 4, offset + 8);
    const dataStart = offset + 8;
    const dataEnd = dataStart + length;
    need(b, dataEnd + 4, `PNG ${type} chunk`);
    const critical = (b[offset + 4] & 0x20) === 0;
    if (critical && crc32(b.subarray(offset + 4, dataEnd)) !== u32be(b, dataEnd)) throw new BrokenPicture(`PNG ${type} chunk with a wrong CRC`);
    offset = dataEnd + 4;

    if (!size) {
      if (type !== 'IHDR' || length !== 13) throw new BrokenPicture('PNG without a 13-byte IHDR chunk first');
      size = { width: u32be(b, dataStart), height: u32be(b, dataStart + 4) };
      const [depth, colour, compression, filter, interlace] = b.subarray(dataStart + 8, dataEnd);
      if (!size.width || !size.height || size.width > MAX_PNG_LENGTH || size.height > MAX_PNG_LENGTH) throw new BrokenPicture('PNG dimensions out of range');
      if (!PNG_BIT_DEPTHS[colour]?.includes(depth) || compression !== 0 || filter !== 0 || interlace > 1) throw new BrokenPicture('PNG header with illegal values');
      colourType = colour;
      continue;
    }
    switch (type) {
      case 'IHDR':
        throw new BrokenPicture('PNG with two IHDR chunks');
      case 'PLTE':
        if (palette || imageData || length === 0 || length % 3 !== 0 || length > 768) throw new BrokenPicture('PNG with an illegal PLTE chunk');
        palette = true;
        break;
      case 'IDAT':
        if (colourType === PNG_PALETTE && !palette) throw new BrokenPicture('PNG palette picture without a palette');
        imageData = true;
        for (let i = dataStart; i < dataEnd && zlibHeader.length < 2; i++) zlibHeader.push(b[i]);
        break;
      case 'IEND':
        if (zlibHeader.length < 2) throw new BrokenPicture('PNG without image data');
        if (!isZlibHeader(zlibHeader[0], zlibHeader[1])) throw new BrokenPicture('PNG image data that is no zlib stream');
        return size;
      default:
        // an unknown critical chunk cannot be skipped (a decoder must refuse the picture); an ancillary one can
        if (critical) throw new BrokenPicture(`PNG with an unknown critical chunk ${type}`);
    }
  }
}

/** RFC 1950: deflate with a window of at most 32 KiB, a header checksum, and no preset dictionary (PNG forbids one). */
function isZlibHeader(cmf: number, flg: number): boolean {
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0 && (flg & 0x20) === 0;
}

// ---- JPEG (ITU-T T.81, JFIF / Exif containers) ----

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const TEM = 0x01;
/** Baseline, extended sequential and progressive Huffman frames: what image decoders in browsers take. */
const JPEG_FRAMES = new Set([0xc0, 0xc1, 0xc2]);
/** Every other start-of-frame marker (lossless, hierarchical, arithmetic coding). */
const OTHER_JPEG_FRAMES = new Set([0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
const isRestart = (marker: number) => marker >= 0xd0 && marker <= 0xd7;

function readJpeg(b: Uint8Array): PictureSize {
  let offset = 2; // after SOI
  let size: PictureSize | undefined;
  let scans = 0;
  for (;;) {
    // a marker: 0xFF, any number of 0xFF fill bytes, then its code
    need(b, offset + 2, 'JPEG marker');
    if (b[offset] !== 0xff) throw new BrokenPicture('JPEG segment without a marker');
    while (b[offset + 1] === 0xff) need(b, ++offset + 2, 'JPEG marker');
    const marker = b[offset + 1];
    offset += 2;
    if (marker === EOI) {
      if (!size || !scans) throw new BrokenPicture('JPEG without a frame or a scan');
      return size;
    }
    if (marker === TEM) continue;
    if (marker === SOI || marker === 0x00 || isRestart(marker)) throw new BrokenPicture('JPEG marker out of place');

    need(b, offset + 2, 'JPEG segment length');
    const length = u16be(b, offset);
    if (length < 2) throw new BrokenPicture('JPEG segment length out of range');
    need(b, offset + length, 'JPEG segment');
    if (JPEG_FRAMES.has(marker)) {
      if (size) throw new BrokenPicture('JPEG with two frame headers');
      const components = length >= 8 ? b[offset + 7] : 0;
      if (!components || components > 4 || length !== 8 + 3 * components) throw new BrokenPicture('JPEG frame header out of range');
      size = { width: u16be(b, offset + 5), height: u16be(b, offset + 3) };
    } else if (OTHER_JPEG_FRAMES.has(marker)) {
      throw new BrokenPicture('JPEG coded otherwise than baseline, extended or progressive Huffman (lossless, hierarchical or arithmetic)');
    } else if (marker === SOS) {
      if (!size) throw new BrokenPicture('JPEG scan before the frame header');
      const components = length >= 6 ? b[offset + 2] : 0;
      if (!components || components > 4 || length !== 6 + 2 * components) throw new BrokenPicture('JPEG scan header out of range');
      offset = endOfEntropyCodedData(b, offset + length);
      scans++;
      continue;
    }
    offset += length;
  }
}

/** Where the entropy-coded data starting at `offset` ends: at the first 0xFF that begins a marker (not a stuffed 0xFF00, not a restart marker). */
function endOfEntropyCodedData(b: Uint8Array, offset: number): number {
  for (;;) {
    const ff = b.indexOf(0xff, offset);
    if (ff < 0 || ff + 1 >= b.length) throw new BrokenPicture('JPEG scan without an end');
    const next = b[ff + 1];
    if (next === 0x00 || isRestart(next)) offset = ff + 2;
    else if (next === 0xff) offset = ff + 1; // a fill byte before a marker
    else return ff;
  }
}

// ---- GIF (GIF89a specification; GIF87a is its subset) ----

const GIF87A = [0x47, 0x49, 0x46, 0x38, 0x37, 0x61];
const GIF89A = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61];
const GIF_EXTENSION = 0x21;
const GIF_IMAGE = 0x2c;
const GIF_TRAILER = 0x3b;

function readGif(b: Uint8Array): PictureSize {
  need(b, 13, 'GIF logical screen descriptor');
  const size = { width: u16le(b, 6), height: u16le(b, 8) };
  let offset = 13 + colourTableBytes(b[10]);
  let images = 0;
  for (;;) {
    // encoders have ended files after the last image's data without the trailer, and decoders
    // show them: a file that ends between blocks, after a whole image, is whole
    if (offset === b.length && images) return size;
    need(b, offset + 1, 'GIF block');
    const introducer = b[offset];
    if (introducer === GIF_TRAILER) {
      if (!images) throw new BrokenPicture('GIF without an image');
      return size;
    }
    if (introducer === GIF_EXTENSION) {
      need(b, offset + 2, 'GIF extension');
      offset = endOfSubBlocks(b, offset + 2);
    } else if (introducer === GIF_IMAGE) {
      need(b, offset + 10, 'GIF image descriptor');
      offset += 10 + colourTableBytes(b[offset + 9]);
      need(b, offset + 1, 'GIF image data');
      const codeSize = b[offset];
      // decoders take LZW codes of at most 12 bits, the first one code size + 1 wide
      if (codeSize < 1 || codeSize > 11) throw new BrokenPicture('GIF LZW code size out of range');
      offset = endOfSubBlocks(b, offset + 1);
      images++;
    } else {
      throw new BrokenPicture('GIF block of an unknown kind');
    }
  }
}

/** The bytes of the colour table a GIF descriptor's packed field announces (none if its top bit is clear). */
function colourTableBytes(packed: number): number {
  return packed & 0x80 ? 3 << ((packed & 0x07) + 1) : 0;
}

/** Sub-blocks (a length byte, then that many bytes) up to the empty one that ends them. */
function endOfSubBlocks(b: Uint8Array, offset: number): number {
  for (;;) {
    need(b, offset + 1, 'GIF data sub-block');
    const length = b[offset];
    offset += 1 + length;
    if (length === 0) return offset;
  }
}

// ---- BMP (Windows bitmap: BITMAPFILEHEADER, then BITMAPCOREHEADER or BITMAPINFOHEADER and its successors) ----

/** Core (OS/2 1.x), info, Adobe's two, V4 and V5 headers. */
const BMP_HEADER_SIZES = new Set([12, 40, 52, 56, 108, 124]);
const BI_RGB = 0;
const BI_RLE8 = 1;
const BI_RLE4 = 2;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;

function readBmp(b: Uint8Array): PictureSize {
  need(b, 18, 'BMP file header');
  const fileSize = u32le(b, 2);
  const dataOffset = u32le(b, 10);
  const headerSize = u32le(b, 14);
  if (!BMP_HEADER_SIZES.has(headerSize)) throw new BrokenPicture('BMP header of an unknown size');
  need(b, 14 + headerSize, 'BMP info header');

  const core = headerSize === 12;
  const width = core ? u16le(b, 18) : i32le(b, 18);
  const signedHeight = core ? u16le(b, 20) : i32le(b, 22);
  const planes = u16le(b, core ? 22 : 26);
  const bitCount = u16le(b, core ? 24 : 28);
  const compression = core ? BI_RGB : u32le(b, 30);
  if (width <= 0 || signedHeight === 0 || planes !== 1) throw new BrokenPicture('BMP dimensions or planes out of range');
  const height = Math.abs(signedHeight);
  const topDown = signedHeight < 0;

  // the info header of 40 bytes is followed by its colour masks; the later headers hold them
  const masks = headerSize === 40 ? (compression === BI_BITFIELDS ? 12 : compression === BI_ALPHABITFIELDS ? 16 : 0) : 0;
  if (dataOffset < 14 + headerSize + masks) throw new BrokenPicture('BMP pixel data inside its headers');

  let dataEnd: number;
  switch (compression) {
    case BI_RGB:
    case BI_BITFIELDS:
    case BI_ALPHABITFIELDS: {
      const depths = compression === BI_RGB ? (core ? [1, 4, 8, 24] : [1, 4, 8, 16, 24, 32]) : [16, 32];
      if (!depths.includes(bitCount)) throw new BrokenPicture('BMP bit depth out of range');
      const rowBytes = Math.floor((width * bitCount + 31) / 32) * 4;
      dataEnd = dataOffset + rowBytes * height;
      break;
    }
    case BI_RLE8:
    case BI_RLE4:
      if (bitCount !== (compression === BI_RLE8 ? 8 : 4) || topDown) throw new BrokenPicture('BMP run-length coding with an illegal depth or row order');
      dataEnd = endOfRunLengthData(b, dataOffset, compression === BI_RLE4);
      break;
    default:
      throw new BrokenPicture('BMP compressed otherwise than none, RLE8, RLE4 or bit fields (embedded JPEG or PNG, say)');
  }
  need(b, dataEnd, 'BMP pixel data');
  if (fileSize > b.length || fileSize < dataEnd) throw new BrokenPicture('BMP whose header states another file size');
  return { width, height };
}

/** The end of BI_RLE8 / BI_RLE4 data: just after its end-of-bitmap code (0, 1). */
function endOfRunLengthData(b: Uint8Array, offset: number, fourBit: boolean): number {
  for (;;) {
    need(b, offset + 2, 'BMP run-length data');
    const count = b[offset];
    const code = b[offset + 1];
    offset += 2;
    if (count > 0 || code === 0) continue; // a run of `count` pixels; the end of a line
    if (code === 1) return offset; // the end of the bitmap
    if (code === 2) {
      offset += 2; // a move right and down
      continue;
    }
    // absolute mode: `code` pixels given one by one, padded to a 16-bit boundary
    const bytes = fourBit ? Math.ceil(code / 2) : code;
    offset += bytes + (bytes & 1);
  }
}

// ---- reading within the bytes ----

/** Every read is preceded by this: nothing past the upload's last byte is looked at. */
function need(b: Uint8Array, end: number, what: string): void {
  if (end > b.length) throw new BrokenPicture(`truncated ${what}`);
}

function startsWith(b: Uint8Array, prefix: readonly number[]): boolean {
  return b.length >= prefix.length && prefix.every((byte, i) => b[i] === byte);
}

const ascii = (b: Uint8Array, start: number, end: number) => String.fromCharCode(...b.subarray(start, end));
const u16be = (b: Uint8Array, o: number) => (b[o] << 8) | b[o + 1];
const u16le = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const u32be = (b: Uint8Array, o: number) => b[o] * 0x1000000 + ((b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]);
const u32le = (b: Uint8Array, o: number) => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16)) + b[o + 3] * 0x1000000;
const i32le = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24);
