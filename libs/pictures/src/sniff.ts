import { ApiError, PictureFormat } from '@plaza/contracts';
import { imageSize } from 'image-size';
import { BrokenPicture, PictureSize, readPictureStructure, signatureFormat } from './structure';

/** Each picture must be smaller than 3 MiB (docs/api/README.md, "Pictures"). */
export const MAX_PICTURE_BYTES = 3 * 1024 * 1024;
/** Above this many pixels a small file would expand to gigabytes in a viewer: a decompression bomb. */
export const MAX_PICTURE_PIXELS = 50_000_000;

/** An SVG document: optional BOM, XML declaration, comments and doctype, then the <svg> root element. */
const SVG_DOCUMENT = /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>/]/i;

/** image-size's names of the accepted formats. */
const ACCEPTED_TYPES = new Set(['jpg', 'png', 'gif', 'bmp']);

export const CONTENT_TYPES: Record<PictureFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
};

export const EXTENSIONS: Record<PictureFormat, string> = { jpeg: 'jpg', png: 'png', gif: 'gif', bmp: 'bmp' };

export interface SniffedPicture {
  format: PictureFormat;
  width: number;
  height: number;
}

/**
 * Decides a picture's format from its bytes, never from its name or declared type:
 * - JPEG, PNG, GIF, BMP that are whole pictures of their format (structure.ts says what that takes)
 *   with sane dimensions: accepted;
 * - an image of another format (WebP, TIFF, SVG...; image-size knows the signatures of every
 *   common format): 400/1008 image_unknow;
 * - bytes that are no image at all, a truncated or damaged JPEG, PNG, GIF or BMP, or a header
 *   that cannot be read: 400/1009 image_wrong_format;
 * - more than MAX_PICTURE_PIXELS: 400/1003 image_too_large (only a whole picture can be too large:
 *   a header claiming billions of pixels over no image data is no picture, 1009).
 * Every decision depends on the upload's bytes alone, never on memory beside them.
 * (docs/DECISIONS.md, "Contradictions found", disagree on 1008 vs 1009; docs/DECISIONS.md explains this choice.)
 */
export function sniffPicture(bytes: Uint8Array): SniffedPicture {
  if (bytes.length > MAX_PICTURE_BYTES) throw new ApiError('image_too_large');
  const format = signatureFormat(bytes);
  if (!format) refuseOtherBytes(bytes);
  let size: PictureSize;
  try {
    size = readPictureStructure(format, bytes);
  } catch (err) {
    if (err instanceof BrokenPicture) throw new ApiError('image_wrong_format', `not a whole picture: ${err.message}`);
    throw err;
  }
  const { width, height } = size;
  if (!width || !height) throw new ApiError('image_wrong_format', 'unreadable picture');
  if (width * height > MAX_PICTURE_PIXELS) throw new ApiError('image_too_large', 'too many pixels');
  return { format, width, height };
}

/** Bytes that begin like none of the accepted formats: an image of another format (1008), or no image (1009). */
function refuseOtherBytes(bytes: Uint8Array): never {
  let type: string | undefined;
  try {
    // image-size reads multi-byte values through a DataView over the whole ArrayBuffer, past the
    // end of a view into Node's shared buffer pool: it is given bytes that own their buffer
    type = imageSize(ownBuffer(bytes)).type;
  } catch {
    throw new ApiError('image_wrong_format', 'not a picture');
  }
  // image-size calls any text with an <svg> tag in its first kilobyte SVG: an HTML page carrying
  // an inline SVG is still no picture (1009); only a document whose root is <svg> is SVG (1008)
  if (type === 'svg' && !SVG_DOCUMENT.test(Buffer.from(bytes.subarray(0, 4096)).toString('utf8'))) {
    throw new ApiError('image_wrong_format', 'not a picture');
  }
  // bytes image-size takes for one of the accepted formats without its signature are a damaged picture
  if (!type || ACCEPTED_TYPES.has(type)) throw new ApiError('image_wrong_format', 'not a picture');
  throw new ApiError('image_unknow', `${type} pictures are not accepted`);
}

function ownBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}
