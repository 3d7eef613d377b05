import { PictureSigner } from '@plaza/pictures';
import { api, ApiResponse, del, expectError, get, put } from '../support/http';
import { stackInfo } from '../support/stack-info';
import { acquire } from '../support/exclusive';
import { createNote, expectStatus, multipart, NoteBody, notePictureKeys, NoteUsers, pathOf, Pictures, tokensOf } from './note-fixtures';

/**
 * Note pictures through the one shared picture mechanism (docs/api/note.md, "Pictures",
 * and docs/api/README.md, "Pictures"). Paul owns the notes, Fay is his friend, Stu a stranger.
 * It counts the note pictures in the store; other suites that store note pictures hold the
 * same lock (support/exclusive.ts) while they do.
 */
describe('note pictures', () => {
  let t: Record<'paul' | 'fay' | 'stu', string>;
  const PLAIN = new RegExp(`^${stackInfo().baseUrl}/v2/picture/note-[0-9a-f]{32}\\.(png|gif)$`);
  const SIGNED = new RegExp(`^${stackInfo().baseUrl}/v2/picture/note-[0-9a-f]{32}\\.(png|gif)\\?ck=[A-Za-z0-9_-]{22}&e=\\d+$`);

  /** The bytes behind a picture address, fetched like a browser would (no token). */
  const fetchPicture = async (address: string) => {
    const res = await fetch(address);
    return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const send = (method: 'POST' | 'PUT', path: string, token: string, fields: Record<string, string>, files: Record<string, Buffer> = {}) =>
    api(method, path, { token, multipart: multipart(fields, files) });
  const notesOfPaul = async () => (await get(`/v2/note/user_created/${NoteUsers.paul.id}`, { token: t.paul, query: { count: 0 } })).body.total as number;

  // these tests count the note pictures in the store: other suites store none meanwhile
  let release: (() => void) | undefined;
  beforeAll(async () => {
    release = await acquire('note-pictures');
    t = await tokensOf('paul', 'fay', 'stu');
  });
  afterAll(() => release?.());

  describe('a note written with pictures', () => {
    let note: NoteBody;

    beforeAll(async () => {
      const res = await send('POST', '/v2/notes', t.paul, {
        title: 'Trip', content: 'Morning <图片p_1> and noon <图片 p_2="">', pids: 'p_1,p_2',
        layout_p_1: 'L', desc_p_1: 'sunrise <b>!</b>', layout_2: 'R', desc_2: 'lunch',
      }, { image_p_1: Pictures.png, image_2: Pictures.gif });
      expectStatus(res, 201);
      note = res.body;
    });

    it('stores references as [img=N:layout]caption[/img] and maps numbers to addresses in photos', () => {
      expect(note.content).toBe('Morning [img=1:L]sunrise <b>!</b>[/img] and noon [img=2:R]lunch[/img]');
      expect(Object.keys(note.photos)).toEqual(['1', '2']);
      expect(note.photos['1']).toMatch(PLAIN);
      expect(note.photos['1'].endsWith('.png')).toBe(true);
      expect(note.photos['2'].endsWith('.gif')).toBe(true);
    });

    it('serves the pictures of a public note to anyone, format from the bytes', async () => {
      const png = await fetchPicture(note.photos['1']);
      expect({ status: png.status, type: png.type }).toEqual({ status: 200, type: 'image/png' });
      expect(png.bytes.equals(Pictures.png)).toBe(true);
      expect((await fetchPicture(note.photos['2'])).type).toBe('image/gif');
    });

    it('renders pictures as figures in html_full and leaves them out of the abstract', async () => {
      const html = (await get(`/v2/note/${note.id}`, { token: t.stu, query: { format: 'html_full' } })).body.content;
      expect(html).toBe(
        `Morning <figure class="note-photo note-photo-L"><img src="${note.photos['1']}" alt="sunrise &lt;b&gt;!&lt;/b&gt;"><figcaption>sunrise &lt;b&gt;!&lt;/b&gt;</figcaption></figure>` +
          ` and noon <figure class="note-photo note-photo-R"><img src="${note.photos['2']}" alt="lunch"><figcaption>lunch</figcaption></figure>`,
      );
      expect(note.summary).toBe('Morning  and noon');
      expect((await get(`/v2/note/${note.id}`, { token: t.stu, query: { format: 'html_short' } })).body.content).toBe('Morning  and noon');
    });

    it('keeps pictures the content does not refer to in photos, with layout C and no caption by default', async () => {
      const res = await send('POST', '/v2/notes', t.paul, { title: 'Unreferenced', content: 'only <图片p_2>' }, { image_1: Pictures.png, image_2: Pictures.png });
      expect(res.status).toBe(201);
      expect(res.body.content).toBe('only [img=2:C][/img]');
      expect(Object.keys(res.body.photos)).toEqual(['1', '2']);
      expect((await fetchPicture(res.body.photos['1'])).status).toBe(200);
    });
  });

  describe('POST /v2/note/:id adds pictures', () => {
    it('without content appends them at the end: 202 with the Note', async () => {
      const base = await createNote(t.paul, { title: 'Growing', content: 'Base text' });
      const first = await send('POST', `/v2/note/${base.id}`, t.paul, { pids: 'p_3', layout_p_3: 'R', desc_p_3: 'added' }, { image_p_3: Pictures.png });
      expect(first.status).toBe(202);
      expect(first.body).toMatchObject({ id: base.id, title: 'Growing', content: 'Base text\n[img=3:R]added[/img]' });
      expect(Object.keys(first.body.photos)).toEqual(['3']);
      const second = await send('POST', `/v2/note/${base.id}`, t.paul, {}, { image_2: Pictures.gif, image_1: Pictures.png });
      expect(second.body.content).toBe('Base text\n[img=3:R]added[/img]\n[img=1:C][/img]\n[img=2:C][/img]');
      expect(Object.keys(second.body.photos)).toEqual(['1', '2', '3']);
      expect(second.body.photos['3']).toBe(first.body.photos['3']);
      expect((await get(`/v2/note/${base.id}`, { token: t.paul })).body).toEqual(second.body);
    });

    it('with content replaces the content, which may refer to old and new pictures', async () => {
      const base = await createNote(t.paul, { title: 'Rewritten', content: 'old' });
      await send('POST', `/v2/note/${base.id}`, t.paul, {}, { image_1: Pictures.png });
      const res = await send('POST', `/v2/note/${base.id}`, t.paul, { content: 'new <图片p_2> then <图片p_1>', desc_2: 'two' }, { image_2: Pictures.png });
      expect(res.status).toBe(202);
      expect(res.body.content).toBe('new [img=2:C]two[/img] then [img=1:C][/img]');
    });

    it('refuses a picture number the note already uses with 400/1016 (here and on PUT), storing nothing', async () => {
      const base = await createNote(t.paul, { title: 'Numbers', content: 'x' });
      await send('POST', `/v2/note/${base.id}`, t.paul, {}, { image_1: Pictures.png });
      const before = await get(`/v2/note/${base.id}`, { token: t.paul });
      const keys = await notePictureKeys();
      expectError(await send('POST', `/v2/note/${base.id}`, t.paul, {}, { image_p_1: Pictures.gif }), 400, 1016);
      expectError(await send('PUT', `/v2/note/${base.id}`, t.paul, { title: 'Numbers', content: 'x' }, { image_1: Pictures.gif }), 400, 1016);
      expect((await get(`/v2/note/${base.id}`, { token: t.paul })).body).toEqual(before.body);
      expect(await notePictureKeys()).toEqual(keys);
    });

    it('needs a picture: 400/1002', async () => {
      const base = await createNote(t.paul, { title: 'Empty', content: 'x' });
      expectError(await send('POST', `/v2/note/${base.id}`, t.paul, { content: 'y' }), 400, 1002);
    });

    it("refuses another user's upload with 403/1000 and a missing note with 400/1006, keeping no picture", async () => {
      const base = await createNote(t.paul, { title: 'Mine', content: 'x', privacy: 'friend' });
      const keys = await notePictureKeys();
      expectError(await send('POST', `/v2/note/${base.id}`, t.fay, {}, { image_1: Pictures.png }), 403, 1000);
      expectError(await send('POST', '/v2/note/999999999', t.paul, {}, { image_1: Pictures.png }), 400, 1006);
      expect(await notePictureKeys()).toEqual(keys);
    });

    it('takes pictures on PUT as well', async () => {
      const base = await createNote(t.paul, { title: 'Put', content: 'x' });
      const res = await send('PUT', `/v2/note/${base.id}`, t.paul, { title: 'Put', content: 'with <图片p_1>', layout_1: 'L' }, { image_1: Pictures.png });
      expect(res.status).toBe(202);
      expect(res.body.content).toBe('with [img=1:L][/img]');
      expect(Object.keys(res.body.photos)).toEqual(['1']);
    });
  });

  describe('a refused write changes nothing: no note, no picture', () => {
    const png = Pictures.png;
    it.each<[string, Record<string, string>, Record<string, Buffer>, number, number]>([
      ['a WebP picture beside a good one', {}, { image_1: png, image_2: Pictures.webp }, 400, 1008],
      ['bytes that are no picture', {}, { image_1: Pictures.text }, 400, 1009],
      ['more than 3 pictures', {}, { image_1: png, image_2: png, image_3: png, image_4: png }, 400, 1016],
      ['a pid without its image', { pids: 'p_1,p_2' }, { image_p_1: png }, 400, 1002],
      ['an image missing from pids', { pids: 'p_1' }, { image_p_1: png, image_p_2: png }, 400, 1016],
      ['a bad layout', { layout_1: 'middle' }, { image_1: png }, 400, 1016],
      ['a reference to a picture not sent (refused by the service after the upload)', { content: 'see <图片p_4>' }, { image_1: png }, 400, 1016],
      ['no title (with a good picture)', { title: '' }, { image_1: png }, 400, 1012],
    ])('%s', async (_, fields, files, status, code) => {
      const [notes, keys] = [await notesOfPaul(), await notePictureKeys()];
      const res = await send('POST', '/v2/notes', t.paul, { title: 'Refused', content: 'x', ...fields }, files);
      expectError(res, status, code, 'POST /v2/notes');
      expect(await notesOfPaul()).toBe(notes);
      expect(await notePictureKeys()).toEqual(keys);
    });

    it('a picture of 3 MiB or more: 400/1003', async () => {
      const big = Buffer.concat([Pictures.png, Buffer.alloc(3 * 1024 * 1024)]);
      const [notes, keys] = [await notesOfPaul(), await notePictureKeys()];
      expectError(await send('POST', '/v2/notes', t.paul, { title: 'Big', content: 'x' }, { image_1: big }), 400, 1003);
      expect(await notesOfPaul()).toBe(notes);
      expect(await notePictureKeys()).toEqual(keys);
    });
  });

  describe('pictures of notes not everyone may see', () => {
    let note: NoteBody;
    const keyOf = (address: string) => /note-[0-9a-f]{32}/.exec(address)![0];
    const unsigned = (address: string) => address.split('?')[0];

    beforeAll(async () => {
      const res = await send('POST', '/v2/notes', t.paul, { title: 'Friends only', content: '<图片p_1>', privacy: 'friend' }, { image_1: Pictures.png });
      expectStatus(res, 201);
      note = res.body;
    });

    it('gives the owner and friends signed, expiring addresses that work', async () => {
      expect(note.photos['1']).toMatch(SIGNED);
      expect((await fetchPicture(note.photos['1'])).status).toBe(200);
      const seenByFay = (await get(`/v2/note/${note.id}`, { token: t.fay })).body as NoteBody;
      expect(seenByFay.photos['1']).toMatch(SIGNED);
      const picture = await fetchPicture(seenByFay.photos['1']);
      expect(picture.status).toBe(200);
      expect(picture.bytes.equals(Pictures.png)).toBe(true);
    });

    it('shows a stranger neither the note nor its addresses', async () => {
      const res = await get(`/v2/note/${note.id}`, { token: t.stu });
      expectError(res, 403, 1000);
      expect(res.text).not.toContain(keyOf(note.photos['1']));
    });

    it('refuses the address without, or with a wrong, check value: 403/1010', async () => {
      const address = note.photos['1'];
      expectError(await get(pathOf(unsigned(address))), 403, 1010);
      const ck = /ck=([^&]+)/.exec(address)![1];
      const tampered = address.replace(`ck=${ck}`, `ck=${ck[0] === 'A' ? 'B' : 'A'}${ck.slice(1)}`);
      expectError(await get(pathOf(tampered)), 403, 1010);
      const later = address.replace(/e=(\d+)/, (_, e: string) => `e=${Number(e) + 3600}`);
      expectError(await get(pathOf(later)), 403, 1010);
    });

    it('refuses an expired address: 403/1011', async () => {
      const key = keyOf(note.photos['1']);
      const expired = Math.floor(Date.now() / 1000) - 60;
      const ck = new PictureSigner(stackInfo().pictureSigningKey).sign(key, expired);
      expectError(await get(`${pathOf(unsigned(note.photos['1']))}?ck=${ck}&e=${expired}`), 403, 1011);
    });

    it('closes and opens the pictures with the privacy of the note', async () => {
      const res = await send('POST', '/v2/notes', t.paul, { title: 'Public first', content: 'x' }, { image_1: Pictures.png });
      const publicAddress = res.body.photos['1'] as string;
      expect(publicAddress).toMatch(PLAIN);
      expect((await fetchPicture(publicAddress)).status).toBe(200);

      const closed = await put(`/v2/note/${res.body.id}`, { token: t.paul, json: { title: 'Now private', content: 'x', privacy: 'private' } });
      expect(closed.body.photos['1']).toMatch(SIGNED);
      expectError(await get(pathOf(publicAddress)), 403, 1010);
      expect((await fetchPicture(closed.body.photos['1'])).status).toBe(200);

      const opened = await put(`/v2/note/${res.body.id}`, { token: t.paul, json: { title: 'Public again', content: 'x', privacy: 'public' } });
      expect(opened.body.photos['1']).toBe(publicAddress);
      expect((await fetchPicture(publicAddress)).status).toBe(200);
    });
  });

  describe('deleting a note', () => {
    it('removes its pictures: their addresses answer 404/1001', async () => {
      const res: ApiResponse<NoteBody> = await send('POST', '/v2/notes', t.paul, { title: 'Gone soon', content: '<图片p_1>', privacy: 'private' }, { image_1: Pictures.png, image_2: Pictures.gif });
      expectStatus(res, 201);
      const keys = Object.values(res.body.photos).map((a) => /note-[0-9a-f]{32}/.exec(a)![0]);
      expect((await fetchPicture(res.body.photos['1'])).status).toBe(200);
      expectStatus(await del(`/v2/note/${res.body.id}`, { token: t.paul }), 200);
      for (const address of Object.values(res.body.photos)) expectError(await get(pathOf(address)), 404, 1001);
      const left = await notePictureKeys();
      expect(keys.filter((k) => left.has(k))).toEqual([]);
    });
  });
});
