import { PictureSigner } from '@plaza/pictures';
import { connect } from 'nats';
import { Apps } from '../support/fixtures';
import { tokenFor } from '../support/auth';
import { ApiResponse, del, expectError, get, post, put } from '../support/http';
import { natsOptionsAs, stackInfo } from '../support/stack-info';
import { acquire } from '../support/exclusive';
import { readCutList } from '../support/paging';
import { BookUsers, GIF, MISSING_BOOK, multipart, PNG, WEBP } from './book-support';

const { annotator, annoPeer } = BookUsers;
const CONTENT = '这是一条足够长的批注内容，超过十五个字。';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

async function create(book: string, form: Record<string, string | number | undefined>, token?: string): Promise<ApiResponse> {
  return post(`/v2/book/${book}/annotations`, { token: token ?? (await tokenFor(annotator)), form: form as Record<string, string> });
}

/** A stored picture's bytes (or error), fetched from an address the API gave. */
async function fetchPicture(url: string): Promise<{ status: number; type: string | null; bytes: Buffer; body: unknown }> {
  const res = await fetch(url);
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type');
  return { status: res.status, type, bytes, body: type?.includes('json') ? JSON.parse(bytes.toString()) : undefined };
}

/** How many annotation pictures the object store holds (to prove failed writes leave none behind). */
async function storedBookPictures(): Promise<number> {
  // as the book service, which lists the store to sweep its staged pictures
  const nc = await connect(natsOptionsAs('book'));
  try {
    const os = await nc.jetstream().views.os('pictures');
    return (await os.list()).filter((info) => info.name.startsWith('book-') && !info.deleted).length;
  } finally {
    await nc.close();
  }
}

describe('POST /v2/book/:id/annotations', () => {
  it('creates an annotation placed by page: 201 and the Annotation', async () => {
    const res = await create('2300001', { content: `${CONTENT}\n第二行`, page: 12 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      book_id: '2300001',
      book: expect.objectContaining({ id: '2300001', title: '批注测试之书 Annotated 1' }),
      author_id: annotator.id,
      author_user: {
        id: annotator.id,
        uid: annotator.uid,
        name: annotator.name,
        signature: `${annotator.name} 的签名`,
        alt: expect.stringContaining(annotator.uid),
        avatar: expect.any(String),
      },
      chapter: '',
      page_no: 12,
      privacy: 1,
      abstract: `${CONTENT} 第二行`,
      content: `${CONTENT}\n第二行`,
      abstract_photo: '',
      photos: {},
      last_photo: 0,
      comments_count: 0,
      hasmath: false,
      time: expect.stringMatching(TIMESTAMP),
    });
  });

  it('creates one placed by chapter (page_no 0), from JSON too', async () => {
    const res = await post('/v2/book/2300001/annotations', { token: await tokenFor(annotator), json: { content: CONTENT, chapter: '第三章 风雪' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ chapter: '第三章 风雪', page_no: 0 });
  });

  it.each([
    ['no content', 400, 1002, { page: 1 }],
    ['15 characters of content', 400, 1005, { content: '一二三四五六七八九十一二三四五', page: 1 }],
    ['blank-padded short content', 400, 1005, { content: `   ${'短'.repeat(15)}   `, page: 1 }],
    ['empty content', 400, 1005, { content: '', page: 1 }],
    ['neither page nor chapter', 400, 1002, { content: CONTENT }],
    ['an empty page and an empty chapter', 400, 1002, { content: CONTENT, page: '', chapter: '' }],
    ['both page and chapter', 400, 1016, { content: CONTENT, page: 3, chapter: '第一章' }],
    ['page 0', 400, 6012, { content: CONTENT, page: 0 }],
    ['page -1', 400, 6012, { content: CONTENT, page: -1 }],
    ['page 1000000 (7 digits)', 400, 6012, { content: CONTENT, page: 1000000 }],
    ['page abc', 400, 6012, { content: CONTENT, page: 'abc' }],
    ['page 1.5', 400, 6012, { content: CONTENT, page: '1.5' }],
    ['a chapter of 101 characters', 400, 6013, { content: CONTENT, chapter: '章'.repeat(101) }],
  ])('rejects %s with %i/%i and stores nothing', async (_, status, code, form) => {
    const token = await tokenFor(annotator);
    const before = (await get(`/v2/book/user/${annotator.uid}/annotations`, { token })).body.total;
    expectError(await create('2300002', form as Record<string, string>, token), status, code, 'POST /v2/book/2300002/annotations');
    expect((await get(`/v2/book/user/${annotator.uid}/annotations`, { token })).body.total).toBe(before);
  });

  it('takes exactly 16 characters, page 999999 and a chapter of 100 characters', async () => {
    expect((await create('2300002', { content: '一二三四五六七八九十一二三四五六', page: 999999 })).status).toBe(201);
    expect((await create('2300002', { content: CONTENT, chapter: '章'.repeat(100) })).status).toBe(201);
  });

  it('answers 404/6000 for a missing book, 403/1000 without a user, 403/109 without book_basic_w', async () => {
    expectError(await create(MISSING_BOOK, { content: CONTENT, page: 1 }), 404, 6000);
    expectError(await post('/v2/book/2300002/annotations', { form: { content: CONTENT, page: '1' } }), 403, 1000);
    expectError(await create('2300002', { content: CONTENT, page: 1 }, await tokenFor(annotator, Apps.bookOnly)), 403, 109);
  });
});

describe('annotation privacy and ownership', () => {
  let publicId: string;
  let privateId: string;

  beforeAll(async () => {
    publicId = (await create('2300003', { content: `公开的批注 ${CONTENT}`, page: 5 })).body.id;
    const secret = await create('2300003', { content: `私密的批注 ${CONTENT}`, page: 6, privacy: 'private' });
    expect(secret.body.privacy).toBe(2);
    privateId = secret.body.id;
  });

  it('treats any privacy but private as public (docs/api/book.md, "POST /v2/book/:id/annotations"), however long', async () => {
    const other = await create('2300003', { content: `另一条公开的批注 ${CONTENT}`, page: 7, privacy: 'x'.repeat(300) });
    expect(other.status).toBe(201);
    expect(other.body.privacy).toBe(1);
    expect((await get(`/v2/book/annotation/${other.body.id}`)).body.id).toBe(other.body.id);
    expect((await del(`/v2/book/annotation/${other.body.id}`, { token: await tokenFor(annotator) })).status).toBe(204);
  });

  it('shows a public annotation to anyone, and a private one to its author only (others get 404/1001)', async () => {
    expect((await get(`/v2/book/annotation/${publicId}`)).body.id).toBe(publicId);
    expect((await get(`/v2/book/annotation/${privateId}`, { token: await tokenFor(annotator) })).body.privacy).toBe(2);
    expectError(await get(`/v2/book/annotation/${privateId}`), 404, 1001, `GET /v2/book/annotation/${privateId}`);
    expectError(await get(`/v2/book/annotation/${privateId}`, { token: await tokenFor(annoPeer) }), 404, 1001);
    expectError(await get('/v2/book/annotation/999999999'), 404, 1001);
  });

  it('leaves private annotations out of every list but the author\'s own', async () => {
    const bookList = (await get('/v2/book/2300003/annotations', { token: await tokenFor(annotator) })).body;
    expect(bookList.annotations.map((a: { id: string }) => a.id)).toEqual([publicId]);
    const theirs = (await get(`/v2/book/user/${annotator.uid}/annotations`, { token: await tokenFor(annoPeer) })).body;
    expect(theirs.annotations.map((a: { id: string }) => a.id)).not.toContain(privateId);
    const anonymous = (await get(`/v2/book/user/${annotator.id}/annotations`)).body;
    expect(anonymous.annotations.map((a: { id: string }) => a.id)).not.toContain(privateId);
    const mine = (await get(`/v2/book/user/${annotator.uid}/annotations`, { token: await tokenFor(annotator) })).body;
    expect(mine.annotations.map((a: { id: string }) => a.id)).toContain(privateId);
    expect(mine.total).toBe(anonymous.total + mine.annotations.filter((a: { privacy: number }) => a.privacy === 2).length);
  });

  it('lets only the author change or delete: 403/6002 for a public one, 404/1001 for a private one, nothing changed', async () => {
    const peer = await tokenFor(annoPeer);
    expectError(await put(`/v2/book/annotation/${publicId}`, { token: peer, form: { content: `改掉它 ${CONTENT}`, page: '1' } }), 403, 6002);
    expectError(await del(`/v2/book/annotation/${publicId}`, { token: peer }), 403, 6002, `DELETE /v2/book/annotation/${publicId}`);
    expectError(await put(`/v2/book/annotation/${privateId}`, { token: peer, form: { content: `改掉它 ${CONTENT}`, page: '1' } }), 404, 1001);
    expectError(await del(`/v2/book/annotation/${privateId}`, { token: peer }), 404, 1001);
    expect((await get(`/v2/book/annotation/${publicId}`)).body.content).toBe(`公开的批注 ${CONTENT}`);
    expect((await get(`/v2/book/annotation/${privateId}`, { token: await tokenFor(annotator) })).body.content).toBe(`私密的批注 ${CONTENT}`);
  });

  it('PUT by the author: 202 with the changes; it replaces (privacy left out means public)', async () => {
    const token = await tokenFor(annotator);
    const res = await put(`/v2/book/annotation/${privateId}`, { token, form: { content: `改过的批注 ${CONTENT}`, chapter: '尾声' } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id: privateId, content: `改过的批注 ${CONTENT}`, chapter: '尾声', page_no: 0, privacy: 1 });
    expect((await get(`/v2/book/annotation/${privateId}`)).status).toBe(200);
    const back = await put(`/v2/book/annotation/${privateId}`, { token, form: { content: `改过的批注 ${CONTENT}`, page: '6', privacy: 'private' } });
    expect(back.body).toMatchObject({ page_no: 6, chapter: '', privacy: 2 });
  });

  it('PUT checks the same limits and changes nothing when it fails', async () => {
    const token = await tokenFor(annotator);
    expectError(await put(`/v2/book/annotation/${publicId}`, { token, form: { content: 'short', page: '1' } }), 400, 1005);
    expectError(await put(`/v2/book/annotation/${publicId}`, { token, form: { content: CONTENT } }), 400, 1002);
    expectError(await put(`/v2/book/annotation/${publicId}`, { token, form: { content: CONTENT, page: '0' } }), 400, 6012);
    expectError(await put(`/v2/book/annotation/${publicId}`, { token, form: { content: CONTENT, chapter: 'x'.repeat(101) } }), 400, 6013);
    expectError(await put('/v2/book/annotation/999999999', { token, form: { content: CONTENT, page: '1' } }), 404, 1001);
    expect((await get(`/v2/book/annotation/${publicId}`)).body).toMatchObject({ content: `公开的批注 ${CONTENT}`, page_no: 5 });
  });

  it('DELETE by the author: 204, then the annotation is gone', async () => {
    const token = await tokenFor(annotator);
    const id = (await create('2300003', { content: `要删除的批注 ${CONTENT}`, page: 9 })).body.id;
    const res = await del(`/v2/book/annotation/${id}`, { token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await get(`/v2/book/annotation/${id}`), 404, 1001);
    expectError(await del(`/v2/book/annotation/${id}`, { token }), 404, 1001);
  });
});

describe('GET /v2/book/:id/annotations', () => {
  const book = '2300004';
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const token = await tokenFor(annotator);
    for (const [name, form] of [
      ['p30', { content: `第三十页 ${CONTENT}`, page: 30 }],
      ['ch', { content: `按章节的 ${CONTENT}`, chapter: '序' }],
      ['p7', { content: `第七页 ${CONTENT}`, page: 7 }],
      ['p7b', { content: `又是第七页 ${CONTENT}`, page: 7 }],
    ] as const) {
      ids[name] = (await create(book, form, token)).body.id;
      await new Promise((r) => setTimeout(r, 1100)); // distinct creation times
    }
    ids.peer = (await create(book, { content: `别人的 ${CONTENT}`, page: 2 }, await tokenFor(annoPeer))).body.id;
  });

  const list = async (query: Record<string, string | number> = {}) => (await get(`/v2/book/${book}/annotations`, { query })).body;
  const listIds = async (query: Record<string, string | number> = {}) => (await list(query)).annotations.map((a: { id: string }) => a.id);

  it('orders by rank by default (most comments, then newest), collect newest first, page by page', async () => {
    expect(await listIds()).toEqual([ids.peer, ids.p7b, ids.p7, ids.ch, ids.p30]);
    expect(await listIds({ order: 'rank' })).toEqual([ids.peer, ids.p7b, ids.p7, ids.ch, ids.p30]);
    expect(await listIds({ order: 'collect' })).toEqual([ids.peer, ids.p7b, ids.p7, ids.ch, ids.p30]);
    expect(await listIds({ order: 'page' })).toEqual([ids.peer, ids.p7, ids.p7b, ids.p30, ids.ch]);
  });

  it('filters by page', async () => {
    expect(await listIds({ page: 7, order: 'page' })).toEqual([ids.p7, ids.p7b]);
    expect((await list({ page: 8 })).total).toBe(0);
  });

  it('pages and applies fields', async () => {
    const res = await get(`/v2/book/${book}/annotations`, { query: { order: 'page', start: 1, count: 2, fields: 'id,page_no' } });
    expect(res.body).toEqual({ start: 1, count: 2, total: 5, annotations: [{ id: ids.p7, page_no: 7 }, { id: ids.p7b, page_no: 7 }] });
    expect((await get(`/v2/book/${book}/annotations`, { query: { count: 0 } })).body).toEqual({ start: 0, count: 0, total: 5, annotations: [] });
  });

  it('rejects a bad order or format with 400/1016 and a bad page with 400/6012; 404/6000 for a missing book', async () => {
    expectError(await get(`/v2/book/${book}/annotations`, { query: { order: 'best' } }), 400, 1016);
    expectError(await get(`/v2/book/${book}/annotations`, { query: { format: 'pdf' } }), 400, 1016);
    expectError(await get(`/v2/book/${book}/annotations`, { query: { page: 'x' } }), 400, 6012);
    expectError(await get(`/v2/book/${MISSING_BOOK}/annotations`), 404, 6000);
  });

  it('lists a user\'s annotations by last change, newest first; 404/6008 for an unknown user', async () => {
    const token = await tokenFor(annotator);
    // touch the oldest one: it moves to the front
    await put(`/v2/book/annotation/${ids.p30}`, { token, form: { content: `改过的第三十页 ${CONTENT}`, page: '30' } });
    const mine = (await get(`/v2/book/user/${annotator.uid}/annotations`, { token })).body;
    expect(mine.annotations[0].id).toBe(ids.p30);
    expect(mine.annotations.every((a: { author_id: string }) => a.author_id === annotator.id)).toBe(true);
    expectError(await get('/v2/book/user/nobody_here/annotations'), 404, 6008);
  });

  it('shows a user\'s list as the single reads show each annotation, in either format, and an edit at once', async () => {
    const token = await tokenFor(annotator);
    const path = `/v2/book/user/${annotator.uid}/annotations`;
    const first = await get(path, { token, query: { count: 100 } });
    // the same page twice: the same bytes; each entry as GET /v2/book/annotation/:id shows it
    expect((await get(path, { token, query: { count: 100 } })).text).toBe(first.text);
    for (const entry of first.body.annotations.slice(0, 5)) {
      expect((await get(`/v2/book/annotation/${entry.id}`, { token })).body).toEqual(entry);
    }
    const html = (await get(path, { token, query: { count: 100, format: 'html' } })).body.annotations;
    for (const entry of html.slice(0, 5)) {
      expect((await get(`/v2/book/annotation/${entry.id}`, { token, query: { format: 'html' } })).body).toEqual(entry);
    }
    // an edit shows in the next list, content and abstract
    const edited = `再次改过的第三十页 ${CONTENT}`;
    expect((await put(`/v2/book/annotation/${ids.p30}`, { token, form: { content: edited, page: '30' } })).status).toBe(202);
    const after = (await get(path, { token, query: { count: 100 } })).body.annotations;
    expect(after[0]).toMatchObject({ id: ids.p30, content: edited });
    expect(after[0].abstract.startsWith('再次改过的第三十页')).toBe(true);
  });
});

describe('annotation content formats', () => {
  const hostile = '<script>alert("x")</script><img src=x onerror=alert(1)><a href="javascript:alert(2)">link</a> & <b>bold</b> <图片1 <图片 n="9"> 结尾的文字';
  let id: string;

  beforeAll(async () => {
    id = (await create('2300002', { content: hostile, page: 3 })).body.id;
  });

  it('returns the text as written in text format (the default)', async () => {
    expect((await get(`/v2/book/annotation/${id}`)).body.content).toBe(hostile);
    expect((await get(`/v2/book/annotation/${id}`, { query: { format: 'text' } })).body.content).toBe(hostile);
  });

  it('escapes every tag, handler and entity in html format: nothing the author typed becomes markup', async () => {
    const html = (await get(`/v2/book/annotation/${id}`, { query: { format: 'html' } })).body.content as string;
    expect(html).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&lt;a href=&quot;javascript:alert(2)&quot;&gt;link&lt;/a&gt;' +
        ' &amp; &lt;b&gt;bold&lt;/b&gt; &lt;图片1 &lt;图片 n=&quot;9&quot;&gt; 结尾的文字',
    );
    expect(html).not.toMatch(/<(?!br>)/);
  });

  it('applies format to lists as well, and rejects an unknown format', async () => {
    const list = (await get('/v2/book/2300002/annotations', { query: { format: 'html', count: 100 } })).body;
    const mine = list.annotations.find((a: { id: string }) => a.id === id);
    expect(mine.content.startsWith('&lt;script&gt;')).toBe(true);
    expectError(await get(`/v2/book/annotation/${id}`, { query: { format: 'markdown' } }), 400, 1016);
  });
});

describe('annotation pictures', () => {
  // these tests count the book pictures in the store: other suites store none meanwhile
  let release: (() => void) | undefined;
  beforeAll(async () => {
    release = await acquire('book-pictures');
  });
  afterAll(() => release?.());

  const signer = () => new PictureSigner(stackInfo().pictureSigningKey);
  const keyOf = (url: string) => /\/v2\/picture\/(book-[0-9a-f]{32})\./.exec(url)?.[1] ?? '';

  it('stores numbered parts (1, pic2), renders the references as <img> in html, keeps the markup in text', async () => {
    const token = await tokenFor(annotator);
    const content = `图一<图片1>图二<图片 n="2">${CONTENT}`;
    const res = await post('/v2/book/2300001/annotations', { token, multipart: multipart({ content, page: 40 }, { '1': PNG, pic2: GIF }) });
    expect(res.status).toBe(201);
    const { photos } = res.body;
    expect(Object.keys(photos)).toEqual(['1', '2']);
    expect(photos['1']).toMatch(new RegExp(`^${stackInfo().baseUrl}/v2/picture/book-[0-9a-f]{32}\\.png$`));
    expect(photos['2']).toMatch(/\.gif$/);
    expect(res.body).toMatchObject({ last_photo: 2, abstract_photo: photos['1'], content });

    const html = (await get(`/v2/book/annotation/${res.body.id}`, { query: { format: 'html' } })).body.content;
    expect(html).toBe(`图一<img src="${photos['1']}" alt="1">图二<img src="${photos['2']}" alt="2">${CONTENT}`);

    const png = await fetchPicture(photos['1']);
    expect({ status: png.status, type: png.type }).toEqual({ status: 200, type: 'image/png' });
    expect(png.bytes.equals(PNG)).toBe(true);
    expect((await fetchPicture(photos['2'])).bytes.equals(GIF)).toBe(true);
  });

  it('on update: a used number is 400/1016 and nothing changes; a new number is added; unreferenced pictures stay in photos', async () => {
    const token = await tokenFor(annotator);
    const created = await post('/v2/book/2300001/annotations', { token, multipart: multipart({ content: `<图片1>${CONTENT}`, page: 41 }, { '1': PNG }) });
    const id = created.body.id;
    const before = await get(`/v2/book/annotation/${id}`);
    const pictures = await storedBookPictures();

    const reused = await put(`/v2/book/annotation/${id}`, { token, multipart: multipart({ content: `<图片1>${CONTENT}`, page: 41 }, { pic1: GIF }) });
    expectError(reused, 400, 1016, `PUT /v2/book/annotation/${id}`);
    expect((await get(`/v2/book/annotation/${id}`)).body).toEqual(before.body);
    expect(await storedBookPictures()).toBe(pictures);

    const updated = await put(`/v2/book/annotation/${id}`, { token, multipart: multipart({ content: `只剩新图<图片3>${CONTENT}`, page: 41 }, { '3': GIF }) });
    expect(updated.status).toBe(202);
    expect(Object.keys(updated.body.photos)).toEqual(['1', '3']);
    expect(updated.body.photos['1']).toBe(created.body.photos['1']);
    expect(updated.body).toMatchObject({ last_photo: 3, abstract_photo: updated.body.photos['3'] });
    const html = (await get(`/v2/book/annotation/${id}`, { query: { format: 'html' } })).body.content;
    expect(html).toBe(`只剩新图<img src="${updated.body.photos['3']}" alt="3">${CONTENT}`);
    expect((await fetchPicture(updated.body.photos['1'])).status).toBe(200);
  });

  it('serves a private annotation\'s pictures only through signed, expiring addresses', async () => {
    const token = await tokenFor(annotator);
    const res = await post('/v2/book/2300001/annotations', {
      token,
      multipart: multipart({ content: `<图片1>${CONTENT}`, page: 42, privacy: 'private' }, { '1': PNG }),
    });
    const url = res.body.photos['1'] as string;
    expect(url).toMatch(/\.png\?ck=[A-Za-z0-9_-]+&e=\d+$/);
    expect((await fetchPicture(url)).status).toBe(200);

    const plain = url.split('?')[0];
    const key = keyOf(url);
    const unsigned = await fetchPicture(plain);
    expect({ status: unsigned.status, code: (unsigned.body as { code: number }).code }).toEqual({ status: 403, code: 1010 });
    const forged = await fetchPicture(url.replace(/ck=[^&]+/, 'ck=AAAAAAAAAAAAAAAAAAAAAA'));
    expect({ status: forged.status, code: (forged.body as { code: number }).code }).toEqual({ status: 403, code: 1010 });
    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = await fetchPicture(`${plain}?ck=${signer().sign(key, past)}&e=${past}`);
    expect({ status: expired.status, code: (expired.body as { code: number }).code }).toEqual({ status: 403, code: 1011 });

    // made public, the same picture is served without a signature; made private again, it is not
    const opened = await put(`/v2/book/annotation/${res.body.id}`, { token, form: { content: `<图片1>${CONTENT}`, page: '42' } });
    expect(opened.body.photos['1']).toBe(plain);
    expect((await fetchPicture(plain)).status).toBe(200);
    await put(`/v2/book/annotation/${res.body.id}`, { token, form: { content: `<图片1>${CONTENT}`, page: '42', privacy: 'private' } });
    expect((await fetchPicture(plain)).status).toBe(403);
  });

  it('deletes the pictures with the annotation', async () => {
    const token = await tokenFor(annotator);
    const res = await post('/v2/book/2300001/annotations', { token, multipart: multipart({ content: `<图片1>${CONTENT}`, page: 43 }, { '1': PNG }) });
    const url = res.body.photos['1'];
    expect((await fetchPicture(url)).status).toBe(200);
    expect((await del(`/v2/book/annotation/${res.body.id}`, { token })).status).toBe(204);
    expect((await fetchPicture(url)).status).toBe(404);
  });

  describe('bad pictures are refused and leave nothing behind', () => {
    const attempt = async (files: Record<string, Buffer>, fields: Record<string, string | number> = { content: CONTENT, page: 44 }, book = '2300001') =>
      post(`/v2/book/${book}/annotations`, { token: await tokenFor(annotator), multipart: multipart(fields, files) });

    it.each([
      ['a picture of 3 MiB or more', 1003, () => ({ '1': Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]) })],
      ['a WebP picture', 1008, () => ({ '1': WEBP })],
      ['bytes that are no picture, named .png', 1009, () => ({ '1': Buffer.from('definitely not an image at all') })],
      ['the same number twice (1 and pic1)', 1016, () => ({ '1': PNG, pic1: GIF })],
      ['a good picture beside a bad one', 1009, () => ({ '1': PNG, '2': Buffer.from('nope') })],
    ])('%s → 400/%i', async (_, code, files) => {
      const token = await tokenFor(annotator);
      const before = (await get(`/v2/book/user/${annotator.uid}/annotations`, { token })).body.total;
      const pictures = await storedBookPictures();
      expectError(await attempt(files()), 400, code);
      expect((await get(`/v2/book/user/${annotator.uid}/annotations`, { token })).body.total).toBe(before);
      expect(await storedBookPictures()).toBe(pictures);
    });

    it('a write the service refuses (missing book, short content) removes the pictures it staged', async () => {
      const pictures = await storedBookPictures();
      expectError(await attempt({ '1': PNG }, { content: CONTENT, page: 1 }, MISSING_BOOK), 404, 6000);
      expectError(await attempt({ '1': PNG }, { content: 'too short', page: 1 }), 400, 1005);
      expect(await storedBookPictures()).toBe(pictures);
    });
  });
});

describe('a list of long annotations', () => {
  it('is cut short to what one NATS message carries; paging on from start + count loses none', async () => {
    const token = await tokenFor(BookUsers.longNotes);
    const content = '批'.repeat(100_000); // 300 KB of JSON each: fifteen pass the page's 4 MiB
    const ids = new Set<string>();
    for (let i = 0; i < 15; i++) {
      const res = await post('/v2/book/2300010/annotations', { token, json: { content, page: i + 1 } });
      expect(res.status).toBe(201);
      ids.add(res.body.id);
    }
    const { ids: seen } = await readCutList(`/v2/book/user/${BookUsers.longNotes.uid}/annotations`, 'annotations', ids.size, token);
    expect(seen).toHaveLength(ids.size);
    expect(new Set(seen)).toEqual(ids);
  }, 120_000);
});
