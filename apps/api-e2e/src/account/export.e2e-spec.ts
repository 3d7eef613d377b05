import type { Stack } from '@plaza/stack';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { extract } from 'tar-stream';
import { tokenFor } from '../support/auth';
import { exclusive } from '../support/exclusive';
import { Apps, ONE_PIXEL_PNG, PASSWORD, user } from '../support/fixtures';
import { api, expectError, expectStatus, get, post } from '../support/http';
import { fixtureRecord, importFile, importRecords } from '../support/import';
import { startPrivateStack, stopPrivateStack } from '../support/private-stack';
import { stackInfo } from '../support/stack-info';

/**
 * Export (docs/api/export.md): `GET /v2/user/~me/export` streams a tar of import-format NDJSON
 * pages and the pictures they name, with the signed-in user's records alone, private ones
 * included. Users and records of its own (8 910 000s), so no other suite sees them.
 */

const FIXTURES = join(__dirname, '..', '..', 'fixtures');
const owner = user('8911', 'exp_owner', 'Exporter');
const other = user('8912', 'exp_other', 'Other');
const BOOK = '8910001';
const EVENT = '8910001';

const PNG = ONE_PIXEL_PNG;

interface Archive {
  status: number;
  headers: Headers;
  files: Map<string, Buffer>;
  records: Array<Record<string, unknown> & { kind: string }>;
}

/** Downloads the export and reads the tar as any client would; `save` keeps the bytes in a file. */
async function exportOf(token: string, save?: string): Promise<Archive> {
  const response = await fetch(new URL('/v2/user/~me/export', stackInfo().baseUrl), { headers: { authorization: `Bearer ${token}` } });
  if (save && response.status === 200) {
    const bytes = Buffer.from(await response.arrayBuffer());
    writeFileSync(save, bytes);
    return readTar(response, Readable.from([bytes]));
  }
  if (response.status !== 200 || !response.body) return { status: response.status, headers: response.headers, files: new Map(), records: [] };
  return readTar(response, Readable.fromWeb(response.body as Parameters<typeof Readable.fromWeb>[0]));
}

async function readTar(response: Response, body: Readable): Promise<Archive> {
  const files = new Map<string, Buffer>();
  const reader = extract();
  const done = new Promise<void>((resolve, reject) => {
    reader.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: unknown) => void chunks.push(c as Buffer));
      stream.on('end', () => {
        files.set(header.name, Buffer.concat(chunks));
        next();
      });
    });
    reader.on('finish', resolve);
    reader.on('error', reject);
  });
  body.pipe(reader);
  await done;
  const records = [...files.keys()]
    .filter((name) => name.startsWith('records/'))
    .sort()
    .flatMap((name) => (files.get(name) ?? Buffer.alloc(0)).toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Archive['records'][number]));
  return { status: response.status, headers: response.headers, files, records };
}

const review = (title: string) => ({ book: BOOK, title, content: `${title}: ${'这本书写得很好，值得一读。'.repeat(16)}`, rating: 4 });

/** The catalogue both stacks need before the users' archives: the users (with a password), the book, the event. */
const catalogue = () => [
  // the cities events need (unchanged on the shared stack, which has them)
  ...readFileSync(join(FIXTURES, 'event.ndjson'), 'utf8').split('\n').filter((l) => l.trim() && (JSON.parse(l) as { kind: string }).kind === 'loc').map((l) => JSON.parse(l) as object),
  ...[owner, other].map((u) => ({ kind: 'user', id: u.id, uid: u.uid, name: u.name, password: PASSWORD, signature: `${u.name}'s signature` })),
  { ...fixtureRecord('book.ndjson', 'book'), id: BOOK, title: '导出之书', isbn10: undefined, isbn13: undefined, rating: { numRaters: 0, average: 0 }, tags: [] },
  // a city of its own: the shared stack's list suites count every event of their cities
  { kind: 'loc', id: '891001', uid: 'export-city', name: '导出城', parent: 'china' },
  { ...fixtureRecord('event.ndjson', 'event'), id: EVENT, title: '导出的活动', album: undefined, owner: { id: other.id }, loc_id: '891001' },
];

/** What the first test made and exported, for the round trip. */
const made: { annotation?: string; review?: string; ownNote?: string; otherNote?: string; ownerArchive?: string; otherArchive?: string } = {};
const ARCHIVES = mkdtempSync(join(tmpdir(), 'plaza-export-'));

describe('GET /v2/user/~me/export', () => {
  beforeAll(() => {
    const run = importRecords(catalogue());
    expect(run.status).toBe(0);
  });

  it('streams the user\'s own records, private ones and pictures included, in the import format, and nobody else\'s', async () => {
    const to = await tokenFor(owner);
    const tx = await tokenFor(other);

    // the other user's entry first: a book's tags of equal count are listed in the order they were
    // first used, and the round trip imports the other user's archive first (docs/api/export.md)
    expectStatus(await post(`/v2/book/${BOOK}/collection`, { token: tx, form: { status: 'wish', tags: '别人' } }), 201);
    expectStatus(await post(`/v2/book/${BOOK}/collection`, { token: to, form: { status: 'read', rating: 5, tags: '导出 标签', comment: 'mine', privacy: 'private' } }), 201);
    const ownReview = await post('/v2/book/reviews', { token: to, form: review('Exported review') });
    expectStatus(ownReview, 201);
    expectStatus(await post('/v2/book/reviews', { token: tx, form: review('Other review') }), 201);
    const annotation = await exclusive('book-pictures', () => {
      const form = new FormData();
      form.set('content', '<图片1>这是一条关于这本书的读书笔记，写得足够长了。');
      form.set('page', '7');
      form.set('privacy', 'private');
      form.set('1', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'a.png');
      return post(`/v2/book/${BOOK}/annotations`, { token: to, multipart: form });
    });
    expectStatus(annotation, 201);
    const otherNote = await post('/v2/notes', { token: tx, json: { title: 'Other note', content: 'A note by someone else' } });
    expectStatus(otherNote, 201);
    const ownNote = await exclusive('note-pictures', () => {
      const form = new FormData();
      form.append('title', 'Exported note');
      form.append('content', 'With a picture <图片1>');
      form.append('privacy', 'private');
      form.append('image_1', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'p.png');
      // a second picture with its own layout and caption, which later references take
      form.append('image_2', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'q.png');
      form.append('layout_2', 'R');
      form.append('desc_2', 'Ducks');
      return post('/v2/notes', { token: to, multipart: form });
    });
    expectStatus(ownNote, 201);
    const ownComment = await post(`/v2/note/${otherNote.body.id}/comments`, { token: to, form: { content: 'a comment by the exporter' } });
    expectStatus(ownComment, 201);
    expectStatus(await post(`/v2/note/${otherNote.body.id}/comments`, { token: tx, form: { content: 'a comment by someone else' } }), 201);
    expectStatus(await post(`/v2/note/${otherNote.body.id}/like`, { token: to }), 202);
    expectStatus(await post(`/v2/event/${EVENT}/participants`, { token: to, form: { participate_date: '2099-03-02' } }), 202);
    expectStatus(await post(`/v2/event/${EVENT}/wishers`, { token: to }), 202);
    expectStatus(await post(`/v2/event/${EVENT}/wishers`, { token: tx }), 202);

    Object.assign(made, { annotation: String(annotation.body.id), review: String(ownReview.body.id), ownNote: String(ownNote.body.id), otherNote: String(otherNote.body.id) });
    const archive = await exportOf(to, join(ARCHIVES, 'owner.tar'));
    made.ownerArchive = join(ARCHIVES, 'owner.tar');
    expect(archive.status).toBe(200);
    expect(archive.headers.get('content-type')).toBe('application/x-tar');
    expect(archive.headers.get('content-disposition')).toBe(`attachment; filename="plaza-export-${owner.id}.tar"`);
    expect(archive.headers.get('cache-control')).toBe('private, no-store');
    expect(JSON.parse(String(archive.files.get('plaza-export.json')))).toMatchObject({ format: 'plaza-export', version: 1, user_id: owner.id });

    const of = (kind: string) => archive.records.filter((r) => r.kind === kind);
    expect(of('user')).toEqual([expect.objectContaining({ id: owner.id, uid: owner.uid, name: owner.name, signature: `${owner.name}'s signature` })]);
    expect(of('user')[0]).not.toHaveProperty('password');
    expect(of('collection')).toEqual([
      expect.objectContaining({ user_id: owner.id, book_id: BOOK, status: 'read', rating: 5, tags: ['导出', '标签'], comment: 'mine', privacy: 'private' }),
    ]);
    expect(of('book_review')).toEqual([expect.objectContaining({ id: String(ownReview.body.id), book_id: BOOK, author_id: owner.id, title: 'Exported review', rating: 4 })]);
    const annotations = of('annotation');
    expect(annotations).toEqual([expect.objectContaining({ id: String(annotation.body.id), book_id: BOOK, author_id: owner.id, page_no: 7, privacy: 'private' })]);
    const notes = of('note');
    expect(notes).toEqual([expect.objectContaining({ id: String(ownNote.body.id), author_id: owner.id, title: 'Exported note', privacy: 'private' })]);
    expect(of('note_comment')).toEqual([expect.objectContaining({ id: String(ownComment.body.id), note_id: String(otherNote.body.id), author_id: owner.id, content: 'a comment by the exporter' })]);
    expect(of('note_like')).toEqual([expect.objectContaining({ note_id: String(otherNote.body.id), user_id: owner.id })]);
    expect(of('event_participant')).toEqual([{ kind: 'event_participant', event_id: EVENT, user_id: owner.id, participate_date: '2099-03-02' }]);
    expect(of('event_wisher')).toEqual([{ kind: 'event_wisher', event_id: EVENT, user_id: owner.id }]);
    // nothing of anyone else's: every record names the exporter
    for (const r of archive.records) expect(r.kind === 'user' ? r.id : (r.user_id ?? r.author_id)).toBe(owner.id);

    // the pictures travel with the records that name them, byte for byte, with a note picture's layout and caption
    const picturePath = /^pictures\/(book|note)-[0-9a-f]{32}\.png$/;
    const annotationPhotos = Object.values(annotations[0].photos as Record<string, string>);
    expect(annotationPhotos).toEqual([expect.stringMatching(picturePath)]);
    const notePhotos = notes[0].photos as Record<string, string | { src: string }>;
    expect(notePhotos).toEqual({ 1: expect.stringMatching(picturePath), 2: { src: expect.stringMatching(picturePath), layout: 'R', desc: 'Ducks' } });
    for (const file of [annotationPhotos[0], notePhotos[1] as string, (notePhotos[2] as { src: string }).src]) expect(archive.files.get(file)).toEqual(PNG);

    // the other user's export holds theirs alone: none of the exporter's private records
    const theirs = await exportOf(tx, join(ARCHIVES, 'other.tar'));
    made.otherArchive = join(ARCHIVES, 'other.tar');
    expect(theirs.status).toBe(200);
    expect(theirs.records.filter((r) => r.kind === 'note').map((r) => r.id)).toEqual([String(otherNote.body.id)]);
    expect(theirs.records.some((r) => r.kind === 'annotation' || r.author_id === owner.id || r.user_id === owner.id)).toBe(false);
    expect([...theirs.files.keys()].filter((n) => n.startsWith('pictures/'))).toEqual([]);
  });

  it('pages a large export, one records file per page, and survives a client that goes away midway', async () => {
    const writer = user('8913', 'exp_writer', 'Writer');
    const notes = Array.from({ length: 450 }, (_, i) => ({
      kind: 'note', id: String(8_913_000_000 + i), author_id: writer.id, title: `Note ${i}`, content: `Content of note ${i}`,
      privacy: i % 3 === 0 ? 'private' : 'public', publish_time: '2024-01-01T00:00:00Z',
    }));
    const run = importRecords([{ kind: 'user', id: writer.id, uid: writer.uid, name: writer.name, password: PASSWORD }, ...notes]);
    expect(run.status).toBe(0);
    const token = await tokenFor(writer);

    // a client that reads the first bytes and leaves
    const controller = new AbortController();
    const response = await fetch(new URL('/v2/user/~me/export', stackInfo().baseUrl), { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    await reader?.read();
    controller.abort();

    const archive = await exportOf(token);
    expect(archive.status).toBe(200);
    const pages = [...archive.files.keys()].filter((n) => n.startsWith('records/')).sort();
    expect(pages).toEqual(['records/000001-identity.ndjson', 'records/000002-note.ndjson', 'records/000003-note.ndjson', 'records/000004-note.ndjson']);
    const exported = archive.records.filter((r) => r.kind === 'note');
    expect(exported.map((r) => r.id)).toEqual(notes.map((n) => n.id));
    expect(exported.filter((r) => r.privacy === 'private')).toHaveLength(150);
  });

  it('needs a signed-in user', async () => {
    expectError(await get('/v2/user/~me/export'), 403, 1000);
  });
});

/**
 * The round trip: both users' archives imported into an empty stack of its own (after the same
 * catalogue), and every answer about the exporter's data is the same there, ids, pictures and
 * counters included. Picture addresses differ only by their signature's expiry.
 */
describe('an export imported into an empty stack', () => {
  let stack: Stack | undefined;

  beforeAll(async () => {
    stack = await startPrivateStack();
  }, 240_000);

  afterAll(async () => {
    await stopPrivateStack(stack);
  }, 120_000);

  it('answers every question about the user\'s data as the first stack does', async () => {
    if (!stack || !made.ownerArchive || !made.otherArchive) throw new Error('the export test did not run');
    const fresh = stack;
    const file = join(ARCHIVES, 'catalogue.ndjson');
    writeFileSync(file, `${catalogue().map((r) => JSON.stringify(r)).join('\n')}\n`);
    for (const f of [file, made.otherArchive, made.ownerArchive]) {
      const run = importFile(f, fresh.natsUrl);
      if (run.status !== 0) throw new Error(`import of ${f} failed (${run.status}):\n${run.output}`);
    }

    const tokenOn = async (baseUrl: string | undefined, u: typeof owner) => {
      const res = await api('POST', '/auth2/token', { baseUrl, form: { grant_type: 'password', client_id: Apps.premium.clientId, client_secret: Apps.premium.secret, username: u.uid, password: PASSWORD } });
      expectStatus(res, 200);
      return res.body.access_token as string;
    };
    const tokens = {
      first: { owner: await tokenFor(owner), other: await tokenFor(other) },
      fresh: { owner: await tokenOn(fresh.baseUrl, owner), other: await tokenOn(fresh.baseUrl, other) },
    };
    // a picture address without its signature (ck, e: an expiry from the time of the answer)
    const unsigned = (text: string) => text.replace(/([?&])(ck|e)=[^&"\\]*/g, '$1');
    const pictureAddresses = (text: string) => [...text.matchAll(/https?:\/\/[^"\\]*\/v2\/picture\/[^"\\]+/g)].map((m) => m[0]);

    const paths: Array<[string, 'owner' | 'other']> = [
      [`/v2/user/${owner.uid}`, 'owner'],
      [`/v2/book/${BOOK}`, 'owner'],
      [`/v2/book/${BOOK}`, 'other'],
      [`/v2/book/user/${owner.uid}/collections`, 'owner'],
      [`/v2/book/user/${owner.uid}/tags`, 'owner'],
      [`/v2/book/user/${owner.uid}/annotations`, 'owner'],
      [`/v2/book/user/${owner.uid}/annotations`, 'other'],
      [`/v2/book/annotation/${made.annotation}`, 'owner'],
      [`/v2/book/${BOOK}/reviews`, 'other'],
      [`/v2/note/${made.ownNote}`, 'owner'],
      [`/v2/note/${made.ownNote}`, 'other'],
      [`/v2/note/${made.otherNote}`, 'other'],
      [`/v2/note/${made.otherNote}/comments`, 'other'],
      [`/v2/note/user_created/${owner.id}`, 'owner'],
      [`/v2/note/user_liked/${owner.id}`, 'owner'],
      [`/v2/event/${EVENT}`, 'other'],
      [`/v2/event/user_participated/${owner.id}`, 'owner'],
      [`/v2/event/user_wished/${owner.id}`, 'owner'],
    ];
    let pictures = 0;
    const differences: object[] = [];
    for (const [path, who] of paths) {
      const before = await api('GET', path, { token: tokens.first[who] });
      const after = await api('GET', path, { token: tokens.fresh[who], baseUrl: fresh.baseUrl });
      const same = (text: string, baseUrl: string) => unsigned(text.split(baseUrl).join('API'));
      const [x, y] = [{ path, who, status: before.status, body: same(before.text, stackInfo().baseUrl) }, { path, who, status: after.status, body: same(after.text, fresh.baseUrl) }];
      if (JSON.stringify(x) !== JSON.stringify(y)) differences.push({ first: x, fresh: y });
      // the pictures are served there, byte for byte the same
      const [a, b] = [pictureAddresses(before.text), pictureAddresses(after.text)];
      expect(b.length).toBe(a.length);
      for (let i = 0; i < a.length; i++) {
        const [x, y] = [await fetch(a[i]), await fetch(b[i])];
        expect({ path, status: y.status }).toEqual({ path, status: x.status });
        expect(Buffer.from(await y.arrayBuffer())).toEqual(Buffer.from(await x.arrayBuffer()));
        pictures++;
      }
    }
    expect(differences).toEqual([]);
    // the annotation's and the note's pictures were among them
    expect(pictures).toBeGreaterThanOrEqual(2);

    // the note's second picture kept its layout and caption: a later reference to it shows them on both stacks
    for (const [baseUrl, token] of [[undefined, tokens.first.owner], [fresh.baseUrl, tokens.fresh.owner]] as const) {
      const changed = await api('PUT', `/v2/note/${made.ownNote}`, { baseUrl, token, form: { title: 'Exported note', content: 'Now the ducks <图片p_2>', privacy: 'private' } });
      expectStatus(changed, 202);
      expect(changed.body.content).toContain('Ducks');
      const read = await api('GET', `/v2/note/${made.ownNote}?format=text`, { baseUrl, token });
      expect(read.body.content).toBe('Now the ducks [img=2:R]Ducks[/img]');
    }
  }, 240_000);
});
