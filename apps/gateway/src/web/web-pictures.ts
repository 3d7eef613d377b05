import { crc32, deflateSync } from 'node:zlib';
import { etagOf } from '../http/etag';

/**
 * The pictures behind the addresses the services derive under PUBLIC_WEB_URL for a record loaded
 * without one (docs/api/web.md, "Pictures"): movie posters, celebrity avatars and photos, event
 * posters, users' avatars. No catalogue ships those bytes, so each address answers a placeholder
 * drawn here: a grey PNG of the size's proportions with a picture or a person on it, the same for
 * every record (no service is asked), made once per size.
 */

type Glyph = 'picture' | 'person';

export interface PlaceholderKind {
  glyph: Glyph;
  width: number;
  height: number;
}

/** A route under the pages' path, what its last segment must look like, and the placeholder it answers. */
export interface PictureRoute {
  path: string;
  /** The `:name` parameter's form (absent: the route has no name). */
  name?: RegExp;
  kind: PlaceholderKind;
}

const poster = (width: number): PlaceholderKind => ({ glyph: 'picture', width, height: Math.round(width * 1.5) });
const portrait = (width: number): PlaceholderKind => ({ glyph: 'person', width, height: Math.round(width * 1.5) });
const DIGITS_JPG = /^[0-9]{1,200}\.jpg$/;

/** The derived addresses: docs/api/movie.md (images, avatars, photos), docs/api/event.md (posters), docs/api/user.md (avatar). */
export const PICTURE_ROUTES: PictureRoute[] = [
  ...(
    [
      ['s', 64],
      ['m', 128],
      ['l', 270],
    ] as const
  ).flatMap(([size, width]): PictureRoute[] => [
    { path: `/movie/img/subject/${size}/:name`, name: DIGITS_JPG, kind: poster(width) },
    { path: `/movie/img/celebrity/${size}/:name`, name: DIGITS_JPG, kind: portrait(width) },
  ]),
  ...(
    [
      ['icon', 48, 48],
      ['thumb', 150, 100],
      ['cover', 300, 200],
      ['image', 600, 400],
    ] as const
  ).map(([size, width, height]): PictureRoute => ({ path: `/movie/img/photo/${size}/:name`, name: DIGITS_JPG, kind: { glyph: 'picture', width, height } })),
  { path: '/pics/event/:id/large.jpg', kind: poster(300) },
  { path: '/pics/event/:id/hlarge.jpg', kind: { glyph: 'picture', width: 480, height: 270 } },
  { path: '/pics/event/:id/lmobile.jpg', kind: poster(240) },
  // identity derives `/avatars/<uid>.png`; a uid is letters, digits and `._-` (the `:name` wildcard)
  { path: '/avatars/:name', name: /^[A-Za-z0-9._-]{1,200}\.png$/, kind: { glyph: 'person', width: 160, height: 160 } },
];

const BACKGROUND = 233;
const FOREGROUND = 173;
/** Samples per pixel side: edges anti-aliased, drawn once per size. */
const SAMPLES = 4;

/** Whether the point (x, y) of the unit glyph box (0..1 both ways, y down) is inside the glyph. */
function inside(glyph: Glyph, x: number, y: number): boolean {
  if (glyph === 'person') {
    const head = (x - 0.5) ** 2 + (y - 0.34) ** 2 <= 0.19 ** 2;
    const shoulders = y <= 1 && ((x - 0.5) / 0.42) ** 2 + ((y - 1.02) / 0.42) ** 2 <= 1;
    return head || shoulders;
  }
  const sun = (x - 0.72) ** 2 + (y - 0.3) ** 2 <= 0.11 ** 2;
  const big = y <= 0.95 && y >= 0.4 && Math.abs(x - 0.38) <= (y - 0.4) * (0.38 / 0.55);
  const small = y <= 0.95 && y >= 0.6 && Math.abs(x - 0.72) <= (y - 0.6) * (0.28 / 0.35);
  return sun || big || small;
}

/** Greyscale pixels of a placeholder: the glyph in a centred square of 60% of the shorter side (the whole width for a person, standing on the bottom). */
function draw(kind: PlaceholderKind): Buffer {
  const { width, height, glyph } = kind;
  const side = glyph === 'person' ? Math.min(width, height) * 0.8 : Math.min(width, height) * 0.6;
  const left = (width - side) / 2;
  const top = glyph === 'person' ? height - side : (height - side) / 2;
  // one filter byte (0, none) before each row
  const rows = Buffer.alloc((width + 1) * height);
  for (let py = 0; py < height; py++) {
    rows[py * (width + 1)] = 0;
    for (let px = 0; px < width; px++) {
      let hits = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = (px + (sx + 0.5) / SAMPLES - left) / side;
          const y = (py + (sy + 0.5) / SAMPLES - top) / side;
          if (x >= 0 && x <= 1 && y >= 0 && y <= 1 && inside(glyph, x, y)) hits++;
        }
      }
      const cover = hits / (SAMPLES * SAMPLES);
      rows[py * (width + 1) + 1 + px] = Math.round(BACKGROUND + (FOREGROUND - BACKGROUND) * cover);
    }
  }
  return rows;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG (8-bit greyscale) of the placeholder. */
export function placeholderPng(kind: PlaceholderKind): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(kind.width, 0);
  header.writeUInt32BE(kind.height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(draw(kind), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface Placeholder {
  bytes: Buffer;
  /** A strong ETag of the bytes. */
  etag: string;
}

const drawn = new Map<PlaceholderKind, Placeholder>();

/** The placeholder of a kind, drawn on first use and kept (one per size: a few kilobytes in all). */
export function placeholder(kind: PlaceholderKind): Placeholder {
  let found = drawn.get(kind);
  if (!found) {
    const bytes = placeholderPng(kind);
    found = { bytes, etag: etagOf(bytes) };
    drawn.set(kind, found);
  }
  return found;
}
