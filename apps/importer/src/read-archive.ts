import { ARCHIVE_PICTURE_PATH, ImportedPicture, ImportLine } from '@plaza/contracts';
import { PictureStore, sniffPicture } from '@plaza/pictures';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { extract } from 'tar-stream';
import { LineProblem, ParsedFile, readLine } from './read-records';

/** An export archive read (docs/api/export.md): its records and the pictures they name, by path. */
export interface ParsedArchive extends ParsedFile {
  pictures: Map<string, Buffer>;
}

/** A tar (what `GET /v2/user/~me/export` answers) rather than NDJSON: the ustar magic at byte 257. */
export async function isArchive(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const header = Buffer.alloc(262);
    const { bytesRead } = await file.read(header, 0, 262, 0);
    return bytesRead === 262 && header.subarray(257, 262).toString('latin1') === 'ustar';
  } finally {
    await file.close();
  }
}

/**
 * Reads an export archive: every `records/*.ndjson` entry in name order (the export numbers them
 * in order) as one NDJSON file whose lines are counted across the entries, and every
 * `pictures/<key>.<ext>`. Other entries (`plaza-export.json`) are skipped.
 */
export async function readArchive(path: string): Promise<ParsedArchive> {
  const texts = new Map<string, string>();
  const pictures = new Map<string, Buffer>();
  const reader = extract();
  const done = new Promise<void>((resolve, reject) => {
    reader.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => void chunks.push(chunk as Buffer));
      stream.on('error', reject);
      stream.on('end', () => {
        const body = Buffer.concat(chunks);
        if (/^records\/[^/]+\.ndjson$/.test(header.name)) texts.set(header.name, body.toString('utf8'));
        else if (header.name.startsWith('pictures/')) pictures.set(header.name, body);
        next();
      });
    });
    reader.on('finish', resolve);
    reader.on('error', reject);
  });
  const input = createReadStream(path);
  input.on('error', (err) => reader.destroy(err));
  input.pipe(reader);
  await done;
  const parsed: ParsedArchive = { lines: [], problems: [], pictures };
  let n = 0;
  for (const name of [...texts.keys()].sort()) {
    for (const text of (texts.get(name) ?? '').split('\n')) readLine(text, ++n, parsed);
  }
  return parsed;
}

/**
 * Stores the archive's pictures that annotation and note records name, under their own keys (so
 * their addresses stay the same), staged as an upload through the API is: the owning service
 * accepts each into its record and sets who may see it; a picture of a line that fails stays
 * staged and the service's sweep removes it. Each record's `photos` path is replaced by the
 * stored picture (its key, format, size), or left as it was when the archive has no such file,
 * and the service reports that line.
 */
export async function storeArchivePictures(lines: ImportLine[], pictures: Map<string, Buffer>, store: PictureStore): Promise<LineProblem[]> {
  const stored = new Map<string, ImportedPicture | string>();
  const problems: LineProblem[] = [];
  for (const line of lines) {
    if (line.kind !== 'annotation' && line.kind !== 'note') continue;
    const photos = line.record.photos;
    if (!photos || typeof photos !== 'object' || Array.isArray(photos)) continue;
    const replaced: Record<string, unknown> = {};
    for (const [number, value] of Object.entries(photos as Record<string, unknown>)) {
      replaced[number] = value;
      // a note picture with its layout and caption names its file in `src`
      const withText = value !== null && typeof value === 'object' && !Array.isArray(value) && 'src' in value;
      const path = withText ? (value as { src: unknown }).src : value;
      const match = typeof path === 'string' ? ARCHIVE_PICTURE_PATH.exec(path) : null;
      const bytes = match ? pictures.get(path as string) : undefined;
      if (!match || !bytes) continue;
      let picture = stored.get(match[1]);
      if (picture === undefined) {
        picture = await storeOne(match[1], match[2], bytes, store);
        stored.set(match[1], picture);
      }
      if (typeof picture === 'string') problems.push({ line: line.line, error: `${line.kind}: photos.${number}: ${picture}` });
      else replaced[number] = withText ? { ...(value as object), src: picture } : picture;
    }
    line.record.photos = replaced;
  }
  return problems;
}

async function storeOne(key: string, area: string, bytes: Buffer, store: PictureStore): Promise<ImportedPicture | string> {
  let sniffed;
  try {
    sniffed = sniffPicture(bytes);
  } catch (err) {
    return `pictures/${key}: not a picture Plaza takes (${(err as Error).message})`;
  }
  const existing = await store.info(key);
  // imported before (the same archive again): accepted already, its visibility the service's
  if (!existing) await store.put(key, bytes, { area, format: sniffed.format, public: false, staged: true });
  return { key, format: sniffed.format, width: sniffed.width, height: sniffed.height, size: bytes.length };
}
