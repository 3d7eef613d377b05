import { ApiError, PictureFormat } from '@plaza/contracts';
import { imageSize } from 'image-size';

/** Each picture must be smaller than 3 MiB (spec Limits; CONTRACT.md "Pictures"). */
export const MAX_PICTURE_BYTES = 3 * 1024 * 1024;
/** Above this many pixels a small file would expand to gigabytes in a viewer: a decompression bomb. */
export const MAX_PICTURE_PIXELS = 50_000_000;

/** An SVG document: optional BOM, XML declaration, comments and doctype, then the <svg> root element. */
const SVG_DOCUMENT = /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>/]/i;

const ACCEPTED: Record<string, PictureFormat> = { jpg: 'jpeg', png: 'png', gif: 'gif', bmp: 'bmp' };

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
 * Decides a picture's format from its bytes, never from its name or declared type
 * (image-size reads the headers of every common format without decoding pixels):
 * - JPEG, PNG, GIF, BMP with sane dimensions: accepted;
 * - an image of another format (WebP, TIFF, SVG...): 400/1008 image_unknow;
 * - bytes that are no image at all, or a header that cannot be read: 400/1009 image_wrong_format;
 * - more than MAX_PICTURE_PIXELS: 400/1003 image_too_large.
 * (CONTRACT.md sections 5 and 7 disagree on 1008 vs 1009; docs/DECISIONS.md explains this choice.)
 */
export function sniffPicture(bytes: Uint8Array): SniffedPicture {
  if (bytes.length > MAX_PICTURE_BYTES) throw new ApiError('image_too_large');
  let result: ReturnType<typeof imageSize>;
  try {
    result = imageSize(bytes);
  } catch {
    throw new ApiError('image_wrong_format', 'not a picture');
  }
  // image-size calls any text with an <svg> tag in its first kilobyte SVG: an HTML page carrying
  // an inline SVG is still no picture (1009); only a document whose root is <svg> is SVG (1008)
  if (result.type === 'svg' && !SVG_DOCUMENT.test(Buffer.from(bytes.subarray(0, 4096)).toString('utf8'))) {
    throw new ApiError('image_wrong_format', 'not a picture');
  }
  const format = result.type ? ACCEPTED[result.type] : undefined;
  if (!format) throw new ApiError('image_unknow', `${result.type ?? 'unknown'} pictures are not accepted`);
  const { width, height } = result;
  if (!width || !height) throw new ApiError('image_wrong_format', 'unreadable picture');
  if (width * height > MAX_PICTURE_PIXELS) throw new ApiError('image_too_large', 'too many pixels');
  return { format, width, height };
}
