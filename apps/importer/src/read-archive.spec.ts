import type { PictureStore, StoredPictureMeta } from '@plaza/pictures';
import { createWriteStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { pack } from 'tar-stream';
import { isArchive, readArchive, storeArchivePictures } from './read-archive';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const KEY = `note-${'a'.repeat(32)}`;

async function tarOf(entries: Record<string, Buffer | string>): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'plaza-archive-')), 'export.tar');
  const archive = pack();
  for (const [name, body] of Object.entries(entries)) archive.entry({ name }, body);
  archive.finalize();
  await pipeline(archive, createWriteStream(file));
  return file;
}

function fakeStore(existing: string[] = []) {
  const put: Array<{ key: string; meta: StoredPictureMeta }> = [];
  const store = {
    info: async (key: string) => (existing.includes(key) ? { area: 'note', format: 'png', public: true, staged: false } : undefined),
    put: async (key: string, _bytes: Uint8Array, meta: StoredPictureMeta) => void put.push({ key, meta }),
  } as unknown as PictureStore;
  return { store, put };
}

describe('export archives (docs/api/export.md)', () => {
  it('knows a tar from NDJSON', async () => {
    const ndjson = join(mkdtempSync(join(tmpdir(), 'plaza-archive-')), 'x.ndjson');
    writeFileSync(ndjson, '{"kind":"user","id":"1","uid":"a","name":"A"}\n');
    expect(await isArchive(ndjson)).toBe(false);
    expect(await isArchive(await tarOf({ 'plaza-export.json': '{}' }))).toBe(true);
  });

  it('reads the record pages in order, numbering lines across them, and keeps the pictures', async () => {
    const file = await tarOf({
      'plaza-export.json': '{"format":"plaza-export"}\n',
      'records/000002-note.ndjson': `{"kind":"note","id":"5","photos":{"1":"pictures/${KEY}.png"}}\nnot json\n`,
      'records/000001-identity.ndjson': '{"kind":"user","id":"1","uid":"a","name":"A"}\n',
      [`pictures/${KEY}.png`]: PNG,
    });
    const parsed = await readArchive(file);
    expect(parsed.lines.map((l) => [l.line, l.kind])).toEqual([[1, 'user'], [3, 'note']]);
    expect(parsed.problems).toEqual([{ line: 4, error: expect.stringMatching(/^not JSON/) }]);
    expect(parsed.pictures.get(`pictures/${KEY}.png`)).toEqual(PNG);
  });

  it('stores each named picture once, staged under its own key, and puts it in place of the path', async () => {
    const { store, put } = fakeStore();
    const lines = [
      { line: 1, kind: 'note', record: { photos: { '1': `pictures/${KEY}.png`, '2': 'https://example.com/p.jpg' } } },
      { line: 2, kind: 'note', record: { photos: { '1': `pictures/${KEY}.png`, '3': { src: `pictures/${KEY}.png`, layout: 'R', desc: 'Ducks' } } } },
      { line: 3, kind: 'annotation', record: { photos: { '1': `pictures/book-${'b'.repeat(32)}.png` } } },
    ];
    const problems = await storeArchivePictures(lines, new Map([[`pictures/${KEY}.png`, PNG]]), store);
    expect(problems).toEqual([]);
    expect(put).toEqual([{ key: KEY, meta: { area: 'note', format: 'png', public: false, staged: true } }]);
    const stored = { key: KEY, format: 'png', width: 1, height: 1, size: PNG.length };
    expect(lines[0].record.photos).toEqual({ '1': stored, '2': 'https://example.com/p.jpg' });
    // a picture with its layout and caption keeps them beside the stored picture
    expect(lines[1].record.photos).toEqual({ '1': stored, '3': { src: stored, layout: 'R', desc: 'Ducks' } });
    // not in the archive: left for the service to report
    expect(lines[2].record.photos).toEqual({ '1': `pictures/book-${'b'.repeat(32)}.png` });
  });

  it('does not store again a picture imported before, and reports bytes that are no picture', async () => {
    const { store, put } = fakeStore([KEY]);
    const bad = `note-${'c'.repeat(32)}`;
    const lines = [{ line: 7, kind: 'note', record: { photos: { '1': `pictures/${KEY}.png`, '2': `pictures/${bad}.png` } } }];
    const problems = await storeArchivePictures(lines, new Map([[`pictures/${KEY}.png`, PNG], [`pictures/${bad}.png`, Buffer.from('not a picture')]]), store);
    expect(put).toEqual([]);
    expect(problems).toEqual([{ line: 7, error: expect.stringMatching(/^note: photos\.2: pictures\/note-c+: not a picture Plaza takes/) }]);
  });
});
