import { tokenFor } from '../support/auth';
import { Users } from '../support/fixtures';
import { acquire } from '../support/exclusive';
import { api, expectError, get, post, put } from '../support/http';
import { multipart, Pictures } from '../note/note-fixtures';

/**
 * Banned words (docs/api/README.md: `BANNED_WORDS_FILE`, 400/1004). The shared e2e stack
 * loads fixtures/banned-words.txt: `forbidden-xyzzy` and `违禁词`. A rejected write changes nothing.
 */
const BOOK = '2100001';
const LONG = 'A review long enough to pass the length rule of more than one hundred and fifty characters. '.repeat(3);

describe('banned words (400/1004)', () => {
  it('refuses a note whose title or content contains one, and creates nothing', async () => {
    const token = await tokenFor(Users.dave);
    const before = (await get(`/v2/note/user_created/${Users.dave.id}`, { token })).body.total;
    expectError(await post('/v2/notes', { token, form: { title: 'Hello FORBIDDEN-xyzzy', content: 'fine text' } }), 400, 1004, 'POST /v2/notes');
    expectError(await post('/v2/notes', { token, form: { title: 'Fine', content: '这里有违禁词。' } }), 400, 1004);
    expect((await get(`/v2/note/user_created/${Users.dave.id}`, { token })).body.total).toBe(before);
  });

  it('refuses an edit or a comment that contains one, and keeps the note as it was', async () => {
    const token = await tokenFor(Users.dave);
    const created = await post('/v2/notes', { token, form: { title: 'Clean title', content: 'Clean content.' } });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expectError(await put(`/v2/note/${id}`, { token, form: { title: 'Clean title', content: 'now forbidden-xyzzy' } }), 400, 1004);
    expectError(await post(`/v2/note/${id}/comments`, { token: await tokenFor(Users.erin), form: { content: 'forbidden-xyzzy!' } }), 400, 1004);
    const after = await get(`/v2/note/${id}`, { token });
    expect(after.body.content).toBe('Clean content.');
    expect(after.body.comments_count).toBe(0);
  });

  it('refuses a picture caption or added-picture text that contains one, and stores no picture', async () => {
    const token = await tokenFor(Users.dave);
    const created = await post('/v2/notes', { token, form: { title: 'Pictures', content: 'Clean.' } });
    expect(created.status).toBe(201);
    // the note picture suites count stored pictures: hold their lock while sending some
    const release = await acquire('note-pictures');
    try {
      const captioned = { title: 'Walk', content: 'A walk <图片p_1>', pids: 'p_1', layout_1: 'C', desc_1: 'a 违禁词 caption' };
      expectError(await api('POST', '/v2/notes', { token, multipart: multipart(captioned, { image_1: Pictures.png }) }), 400, 1004);
      const added = { content: 'Clean. <图片p_1> forbidden-xyzzy', pids: 'p_1' };
      expectError(await api('POST', `/v2/note/${created.body.id}`, { token, multipart: multipart(added, { image_1: Pictures.png }) }), 400, 1004);
    } finally {
      release();
    }
    const after = await get(`/v2/note/${created.body.id}`, { token });
    expect(after.body.content).toBe('Clean.');
    expect(after.body.photos).toEqual({});
  });

  it('applies to the book area: collection comments and tags, annotation content and chapter, review title and content', async () => {
    const token = await tokenFor(Users.erin);
    expectError(await post(`/v2/book/${BOOK}/collection`, { token, form: { status: 'wish', comment: 'forbidden-xyzzy' } }), 400, 1004);
    expectError(await post(`/v2/book/${BOOK}/collection`, { token, form: { status: 'wish', tags: 'fine 违禁词' } }), 400, 1004);
    expectError(await get(`/v2/book/${BOOK}/collection`, { token }), 404, 1001);
    expectError(await post(`/v2/book/${BOOK}/annotations`, { token, form: { content: 'An annotation with forbidden-xyzzy inside it.', page: 3 } }), 400, 1004);
    expectError(await post(`/v2/book/${BOOK}/annotations`, { token, form: { content: 'A clean annotation, long enough to keep.', chapter: '违禁词之章' } }), 400, 1004);
    expectError(await post('/v2/book/reviews', { token, form: { book: BOOK, title: 'A forbidden-xyzzy title', content: LONG } }), 400, 1004);
    expectError(await post('/v2/book/reviews', { token, form: { book: BOOK, title: 'Title', content: `${LONG} forbidden-xyzzy` } }), 400, 1004);
    expect((await get(`/v2/book/user/${Users.erin.uid}/annotations`, { token })).body.total).toBe(0);
  });

  it('finds them in what is stored: a link text with entities or inner tags, invisible characters', async () => {
    const token = await tokenFor(Users.dave);
    const before = (await get(`/v2/note/user_created/${Users.dave.id}`, { token })).body.total;
    const refused = [
      // an anchor's text is stored decoded: "forbidden-xyzzy"
      { title: 'Link', content: 'See <a href="https://example.org/">forbidden-xyzz&#121;</a>.' },
      { title: 'Link', content: 'See <a href="https://example.org/">forbidden-<i></i>xyzzy</a>.' },
      // control characters are removed before storing, zero-width spaces are not seen
      { title: 'forbidden-\u0000xyzzy', content: 'Clean.' },
      { title: 'Clean', content: 'forbidden-\u200bxyzzy' },
      { title: 'Clean', content: '违\u0001禁词' },
    ];
    for (const form of refused) expectError(await post('/v2/notes', { token, json: form }), 400, 1004, 'POST /v2/notes');
    expect((await get(`/v2/note/user_created/${Users.dave.id}`, { token })).body.total).toBe(before);

    const note = await post('/v2/notes', { token, json: { title: 'Clean', content: 'Clean.' } });
    expect(note.status).toBe(201);
    expectError(await post(`/v2/note/${note.body.id}/comments`, { token: await tokenFor(Users.erin), json: { content: 'forbidden-\u0000xyzzy' } }), 400, 1004);
    expect((await get(`/v2/note/${note.body.id}`, { token })).body.comments_count).toBe(0);
  });

  it('lets text without them through', async () => {
    const token = await tokenFor(Users.dave);
    const res = await post('/v2/notes', { token, form: { title: 'forbidden', content: 'xyzzy alone is fine' } });
    expect(res.status).toBe(201);
  });
});
