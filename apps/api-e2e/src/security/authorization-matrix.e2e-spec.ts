import { tokenFor } from '../support/auth';
import { exclusive } from '../support/exclusive';
import { api, ApiResponse, del, get, post, put } from '../support/http';
import { CANARY, expectCleanError, GIF, pictureForm, PNG, SecBooks, SecEvents, SecUsers } from './security-support';

/**
 * Object-level authorization, one row per write and per private read of the interface
 * (docs/RELIABILITY.md, "Access"). The owner (sec_owner) holds a private collection entry, a
 * private and a public annotation (the private one with pictures), a review, a private, a
 * friends-only and a public note with comments, and the private event 70001. Each row is a
 * request by someone else — the intruder, an anonymous caller, or a user with some legitimate
 * access (the friend, a commenter) — and the answer docs/api/*.md documents for it.
 * Afterwards the owner reads everything back: nothing has changed.
 *
 * Codes: book area 404/1001 for what the caller may not see, 403/6002 for someone else's public
 * annotation or review; notes 403/1000; events 404/1001 (docs/api/book.md decisions 5-6,
 * docs/api/note.md "Errors" and docs/api/event.md). Every hidden record carries CANARY.matrix, which no answer to
 * these callers may contain.
 */
const { owner, intruder, friend } = SecUsers;
const BOOK = SecBooks.matrix;
const EVENT = SecEvents.matrix;
const SECRET = CANARY.matrix;
const REVIEW_TEXT = '这是一篇足够长的书评。'.repeat(20);
/**
 * The private entry's tag. It counts in the book's own tags, as every collection does
 * (docs/api/README.md: aggregates reveal no one), but never in the owner's tags shown to others.
 */
const PRIVATE_TAG = 'matrixtag7001';

type Who = 'owner' | 'intruder' | 'friend' | 'commenter' | 'anonymous';

interface Records {
  privateAnnotation: string;
  publicAnnotation: string;
  /** The private annotation's two picture addresses, as signed for the owner. */
  pictures: [string, string];
  review: number;
  notes: Record<'private' | 'friend' | 'public', string>;
  /** The friend's comment on the friends-only note, the commenter's on the public note. */
  friendComment: string;
  publicComment: string;
}

interface Row {
  area: 'collections' | 'annotations' | 'pictures' | 'reviews' | 'notes' | 'events';
  what: string;
  as: Who;
  send: (r: Records, token: string | undefined) => Promise<ApiResponse>;
  /** `[status, code]` of the documented error, or `hidden`: 200 without any hidden record. */
  expect: [number, number] | 'hidden' | 'own entry';
  /** Text besides the canary the answer must not contain. */
  absent?: string;
}

const form = (fields: Record<string, string>) => ({ form: fields });

const ROWS: Row[] = [
  // ---- collections: an entry is addressed by caller and book, so user_id never reaches the owner's
  { area: 'collections', what: 'GET the private entry by uid', as: 'intruder', expect: [404, 1001],
    send: (_, token) => get(`/v2/book/${BOOK}/collection`, { token, query: { user_id: owner.uid } }) },
  { area: 'collections', what: 'GET the private entry by numeric id', as: 'intruder', expect: [404, 1001],
    send: (_, token) => get(`/v2/book/${BOOK}/collection`, { token, query: { user_id: owner.id } }) },
  { area: 'collections', what: 'GET the private entry', as: 'anonymous', expect: [404, 1001],
    send: () => get(`/v2/book/${BOOK}/collection`, { query: { user_id: owner.uid } }) },
  { area: 'collections', what: 'GET the private entry', as: 'friend', expect: [404, 1001],
    send: (_, token) => get(`/v2/book/${BOOK}/collection`, { token, query: { user_id: owner.id } }) },
  { area: 'collections', what: "GET the owner's collections list", as: 'intruder', expect: 'hidden', absent: PRIVATE_TAG,
    send: (_, token) => get(`/v2/book/user/${owner.uid}/collections`, { token }) },
  { area: 'collections', what: "GET the owner's tags", as: 'intruder', expect: 'hidden', absent: PRIVATE_TAG,
    send: (_, token) => get(`/v2/book/user/${owner.uid}/tags`, { token }) },
  { area: 'collections', what: "GET the owner's tags (deprecated user_tags)", as: 'intruder', expect: 'hidden', absent: PRIVATE_TAG,
    send: (_, token) => get(`/v2/book/user_tags/${owner.id}`, { token }) },
  { area: 'collections', what: 'GET the book (no current_user_collection of the owner)', as: 'intruder', expect: 'hidden',
    send: (_, token) => get(`/v2/book/${BOOK}`, { token }) },
  { area: 'collections', what: 'GET the book in a search', as: 'intruder', expect: 'hidden',
    send: (_, token) => get('/v2/book/search', { token, query: { q: 'Matrix Fixture' } }) },
  { area: 'collections', what: 'PUT naming the owner in user_id', as: 'intruder', expect: [404, 1001],
    send: (_, token) => put(`/v2/book/${BOOK}/collection`, { token, query: { user_id: owner.id }, ...form({ status: 'wish', user_id: owner.id, comment: 'taken over' }) }) },
  { area: 'collections', what: 'DELETE naming the owner in user_id', as: 'intruder', expect: [404, 1001],
    send: (_, token) => del(`/v2/book/${BOOK}/collection`, { token, query: { user_id: owner.uid } }) },
  // last of its kind: it creates the intruder's own entry, which the owner's view never shows
  { area: 'collections', what: 'POST naming the owner in user_id writes the caller\'s own entry', as: 'intruder', expect: 'own entry',
    send: (_, token) => post(`/v2/book/${BOOK}/collection`, { token, query: { user_id: owner.id }, ...form({ status: 'wish', user_id: owner.id }) }) },

  // ---- annotations
  { area: 'annotations', what: 'GET the private annotation', as: 'intruder', expect: [404, 1001],
    send: (r, token) => get(`/v2/book/annotation/${r.privateAnnotation}`, { token }) },
  { area: 'annotations', what: 'GET the private annotation', as: 'anonymous', expect: [404, 1001],
    send: (r) => get(`/v2/book/annotation/${r.privateAnnotation}`) },
  { area: 'annotations', what: 'GET the private annotation as html', as: 'friend', expect: [404, 1001],
    send: (r, token) => get(`/v2/book/annotation/${r.privateAnnotation}`, { token, query: { format: 'html' } }) },
  { area: 'annotations', what: 'PUT the private annotation', as: 'intruder', expect: [404, 1001],
    send: (r, token) => put(`/v2/book/annotation/${r.privateAnnotation}`, { token, ...form({ content: '改写别人的私密批注，这段内容足够长了。', page: '1' }) }) },
  { area: 'annotations', what: 'DELETE the private annotation', as: 'intruder', expect: [404, 1001],
    send: (r, token) => del(`/v2/book/annotation/${r.privateAnnotation}`, { token }) },
  { area: 'annotations', what: 'PUT the public annotation', as: 'intruder', expect: [403, 6002],
    send: (r, token) => put(`/v2/book/annotation/${r.publicAnnotation}`, { token, ...form({ content: '改写别人的公开批注，这段内容足够长了。', page: '1', privacy: 'private' }) }) },
  { area: 'annotations', what: 'DELETE the public annotation', as: 'intruder', expect: [403, 6002],
    send: (r, token) => del(`/v2/book/annotation/${r.publicAnnotation}`, { token }) },
  { area: 'annotations', what: "GET the owner's annotations", as: 'intruder', expect: 'hidden',
    send: (_, token) => get(`/v2/book/user/${owner.uid}/annotations`, { token }) },
  { area: 'annotations', what: "GET the book's annotations", as: 'intruder', expect: 'hidden',
    send: (_, token) => get(`/v2/book/${BOOK}/annotations`, { token, query: { order: 'collect' } }) },

  // ---- pictures of the private annotation: only the owner's signed addresses open them
  { area: 'pictures', what: 'GET a private picture without its signature', as: 'anonymous', expect: [403, 1010],
    send: (r) => get(pathOf(r.pictures[0]).split('?')[0]) },
  { area: 'pictures', what: "GET a private picture with another picture's signature", as: 'anonymous', expect: [403, 1010],
    send: (r) => get(`${pathOf(r.pictures[1]).split('?')[0]}?${pathOf(r.pictures[0]).split('?')[1]}`) },
  { area: 'pictures', what: 'GET a private picture with a signature pushed to a later expiry', as: 'intruder', expect: [403, 1010],
    send: (r, token) => get(pathOf(r.pictures[0]).replace(/e=(\d+)/, (_, e: string) => `e=${Number(e) + 86_400}`), { token }) },

  // ---- book reviews
  { area: 'reviews', what: 'PUT the review', as: 'intruder', expect: [403, 6002],
    send: (r, token) => put(`/v2/book/review/${r.review}`, { token, ...form({ title: 'mine now', content: REVIEW_TEXT, rating: '1' }) }) },
  { area: 'reviews', what: 'DELETE the review', as: 'intruder', expect: [403, 6002],
    send: (r, token) => del(`/v2/book/review/${r.review}`, { token }) },
  { area: 'reviews', what: 'DELETE the review', as: 'friend', expect: [403, 6002],
    send: (r, token) => del(`/v2/book/review/${r.review}`, { token }) },

  // ---- notes
  { area: 'notes', what: 'GET the private note', as: 'intruder', expect: [403, 1000],
    send: (r, token) => get(`/v2/note/${r.notes.private}`, { token }) },
  { area: 'notes', what: 'GET the private note', as: 'friend', expect: [403, 1000],
    send: (r, token) => get(`/v2/note/${r.notes.private}`, { token, query: { format: 'html_full' } }) },
  { area: 'notes', what: 'GET the friends-only note', as: 'intruder', expect: [403, 1000],
    send: (r, token) => get(`/v2/note/${r.notes.friend}`, { token, query: { format: 'abstract' } }) },
  { area: 'notes', what: 'PUT the public note', as: 'intruder', expect: [403, 1000],
    send: (r, token) => put(`/v2/note/${r.notes.public}`, { token, json: { title: 'defaced', content: 'defaced', privacy: 'private' } }) },
  { area: 'notes', what: 'PUT the friends-only note', as: 'friend', expect: [403, 1000],
    send: (r, token) => put(`/v2/note/${r.notes.friend}`, { token, json: { title: 'edited', content: 'edited' } }) },
  { area: 'notes', what: 'PUT the private note', as: 'intruder', expect: [403, 1000],
    send: (r, token) => put(`/v2/note/${r.notes.private}`, { token, json: { title: 'x', content: 'x' } }) },
  { area: 'notes', what: 'POST pictures to the public note', as: 'intruder', expect: [403, 1000],
    // the gateway stores the picture before the service refuses, then removes it (note-pictures lock)
    send: (r, token) => exclusive('note-pictures', () => api('POST', `/v2/note/${r.notes.public}`, { token, multipart: pictureForm({ content: 'mine <图片p_1>' }, { image_1: { bytes: PNG, name: 'a.png', type: 'image/png' } }) })) },
  { area: 'notes', what: 'POST pictures to the private note', as: 'intruder', expect: [403, 1000],
    send: (r, token) => exclusive('note-pictures', () => api('POST', `/v2/note/${r.notes.private}`, { token, multipart: pictureForm({}, { image_1: { bytes: GIF, name: 'a.gif', type: 'image/gif' } }) })) },
  { area: 'notes', what: 'DELETE the public note', as: 'intruder', expect: [403, 1000],
    send: (r, token) => del(`/v2/note/${r.notes.public}`, { token }) },
  { area: 'notes', what: 'DELETE the friends-only note', as: 'friend', expect: [403, 1000],
    send: (r, token) => del(`/v2/note/${r.notes.friend}`, { token }) },
  { area: 'notes', what: 'DELETE the private note', as: 'intruder', expect: [403, 1000],
    send: (r, token) => del(`/v2/note/${r.notes.private}`, { token }) },
  { area: 'notes', what: 'like the private note', as: 'intruder', expect: [403, 1000],
    send: (r, token) => post(`/v2/note/${r.notes.private}/like`, { token }) },
  { area: 'notes', what: 'unlike the private note (the owner liked it)', as: 'intruder', expect: [403, 1000],
    send: (r, token) => del(`/v2/note/${r.notes.private}/like`, { token }) },
  { area: 'notes', what: 'like the friends-only note', as: 'intruder', expect: [403, 1000],
    send: (r, token) => post(`/v2/note/${r.notes.friend}/like`, { token }) },
  { area: 'notes', what: "GET the friends-only note's comments", as: 'intruder', expect: [403, 1000],
    send: (r, token) => get(`/v2/note/${r.notes.friend}/comments`, { token }) },
  { area: 'notes', what: "GET the friend's comment on the friends-only note", as: 'intruder', expect: [403, 1000],
    send: (r, token) => get(`/v2/note/${r.notes.friend}/comment/${r.friendComment}`, { token }) },
  { area: 'notes', what: 'comment on the private note', as: 'intruder', expect: [403, 1000],
    send: (r, token) => post(`/v2/note/${r.notes.private}/comments`, { token, json: { content: 'let me in' } }) },
  { area: 'notes', what: 'comment on the private note', as: 'friend', expect: [403, 1000],
    send: (r, token) => post(`/v2/note/${r.notes.private}/comments`, { token, json: { content: 'let me in' } }) },
  { area: 'notes', what: "DELETE the commenter's comment on the public note", as: 'intruder', expect: [403, 1000],
    send: (r, token) => del(`/v2/note/${r.notes.public}/comment/${r.publicComment}`, { token }) },
  { area: 'notes', what: "DELETE the friend's comment on the friends-only note", as: 'commenter', expect: [403, 1000],
    send: (r, token) => del(`/v2/note/${r.notes.friend}/comment/${r.friendComment}`, { token }) },
  { area: 'notes', what: "GET the owner's notes", as: 'intruder', expect: 'hidden',
    send: (_, token) => get(`/v2/note/user_created/${owner.id}`, { token, query: { format: 'html_full' } }) },
  { area: 'notes', what: 'GET the notes the owner liked', as: 'intruder', expect: 'hidden',
    send: (_, token) => get(`/v2/note/user_liked/${owner.id}`, { token }) },

  // ---- the private event 70001 (the friend takes part)
  { area: 'events', what: 'GET the private event', as: 'intruder', expect: [404, 1001],
    send: (_, token) => get(`/v2/event/${EVENT}`, { token }) },
  { area: 'events', what: 'GET the private event', as: 'anonymous', expect: [404, 1001],
    send: () => get(`/v2/event/${EVENT}`) },
  { area: 'events', what: "GET the private event's participants", as: 'intruder', expect: [404, 1001],
    send: (_, token) => get(`/v2/event/${EVENT}/participants`, { token }) },
  { area: 'events', what: "GET the private event's wishers", as: 'anonymous', expect: [404, 1001],
    send: () => get(`/v2/event/${EVENT}/wishers`) },
  { area: 'events', what: 'join the private event', as: 'intruder', expect: [404, 1001],
    send: (_, token) => post(`/v2/event/${EVENT}/participants`, { token, ...form({ participate_date: '2099-03-01' }) }) },
  { area: 'events', what: 'leave the private event', as: 'intruder', expect: [404, 1001],
    send: (_, token) => del(`/v2/event/${EVENT}/participants`, { token }) },
  { area: 'events', what: 'wish the private event', as: 'intruder', expect: [404, 1001],
    send: (_, token) => post(`/v2/event/${EVENT}/wishers`, { token }) },
  { area: 'events', what: 'unwish the private event', as: 'intruder', expect: [404, 1001],
    send: (_, token) => del(`/v2/event/${EVENT}/wishers`, { token }) },
  { area: 'events', what: "GET the owner's created events", as: 'intruder', expect: 'hidden',
    send: (_, token) => get(`/v2/event/user_created/${owner.id}`, { token }) },
  { area: 'events', what: "GET the friend's participated events", as: 'intruder', expect: 'hidden',
    send: (_, token) => get(`/v2/event/user_participated/${friend.id}`, { token }) },
  { area: 'events', what: "GET the city's events", as: 'anonymous', expect: 'hidden',
    send: () => get('/v2/event/list', { query: { loc: '108288', type: 'salon', count: 100 } }) },
];

function pathOf(address: string): string {
  const url = new URL(address);
  return `${url.pathname}${url.search}`;
}

describe('object-level authorization matrix', () => {
  const tokens = {} as Record<Exclude<Who, 'anonymous'>, string>;
  const r = {} as Records;
  let before: unknown;

  /** Everything the owner has, read back as the owner (signed picture addresses vary with time: compared without their query). */
  async function ownerView(): Promise<unknown> {
    const token = tokens.owner;
    const reads: Record<string, Promise<ApiResponse>> = {
      collection: get(`/v2/book/${BOOK}/collection`, { token }),
      collections: get(`/v2/book/user/${owner.uid}/collections`, { token }),
      tags: get(`/v2/book/user/${owner.uid}/tags`, { token }),
      // the review and the collection both count in the book's rating
      book: get(`/v2/book/${BOOK}`, { token }),
      privateAnnotation: get(`/v2/book/annotation/${r.privateAnnotation}`, { token }),
      publicAnnotation: get(`/v2/book/annotation/${r.publicAnnotation}`, { token }),
      annotations: get(`/v2/book/user/${owner.uid}/annotations`, { token }),
      privateNote: get(`/v2/note/${r.notes.private}`, { token }),
      friendNote: get(`/v2/note/${r.notes.friend}`, { token }),
      publicNote: get(`/v2/note/${r.notes.public}`, { token }),
      friendComments: get(`/v2/note/${r.notes.friend}/comments`, { token }),
      publicComments: get(`/v2/note/${r.notes.public}/comments`, { token }),
      liked: get(`/v2/note/user_liked/${owner.id}`, { token }),
      event: get(`/v2/event/${EVENT}`, { token }),
      participants: get(`/v2/event/${EVENT}/participants`, { token }),
      wishers: get(`/v2/event/${EVENT}/wishers`, { token }),
    };
    const view: Record<string, unknown> = {};
    for (const [name, pending] of Object.entries(reads)) {
      const res = await pending;
      view[name] = { status: res.status, body: JSON.parse(res.text.replace(/\?ck=[A-Za-z0-9_-]+&e=\d+/g, '')) };
    }
    return view;
  }

  beforeAll(async () => {
    for (const who of ['owner', 'intruder', 'friend', 'commenter'] as const) tokens[who] = await tokenFor(SecUsers[who]);
    const token = tokens.owner;
    const created = (res: ApiResponse, status: number) => {
      if (res.status !== status) throw new Error(`setup: expected ${status}, got ${res.status} ${res.text}`);
      return res.body;
    };

    created(await post(`/v2/book/${BOOK}/collection`, { token, form: { status: 'read', rating: '5', tags: PRIVATE_TAG, comment: `${SECRET} comment`, privacy: 'private' } }), 201);
    const annotation = await exclusive('book-pictures', () =>
      api('POST', `/v2/book/${BOOK}/annotations`, {
        token,
        multipart: pictureForm(
          { content: `<图片1><图片2>${SECRET} 私密批注的内容足够长了`, page: '7', privacy: 'private' },
          { '1': { bytes: PNG, name: '1.png', type: 'image/png' }, '2': { bytes: GIF, name: '2.gif', type: 'image/gif' } },
        ),
      }),
    );
    const privateAnnotation = created(annotation, 201);
    r.privateAnnotation = privateAnnotation.id;
    r.pictures = [privateAnnotation.photos['1'], privateAnnotation.photos['2']];
    r.publicAnnotation = created(await post(`/v2/book/${BOOK}/annotations`, { token, form: { content: '这是一条公开的批注，它的内容也足够长了。', page: '8' } }), 201).id;
    r.review = created(await post('/v2/book/reviews', { token, form: { book: BOOK, title: 'Matrix review', content: REVIEW_TEXT, rating: '5' } }), 201).id;

    r.notes = {} as Records['notes'];
    for (const privacy of ['private', 'friend', 'public'] as const) {
      const secret = privacy === 'public' ? 'for everyone' : SECRET;
      r.notes[privacy] = created(await post('/v2/notes', { token, json: { title: `${privacy} ${secret}`, content: `${privacy} body ${secret}`, privacy } }), 201).id;
    }
    created(await post(`/v2/note/${r.notes.private}/like`, { token }), 202);
    r.friendComment = created(await post(`/v2/note/${r.notes.friend}/comments`, { token: tokens.friend, json: { content: `${SECRET} from a friend` } }), 201).id;
    r.publicComment = created(await post(`/v2/note/${r.notes.public}/comments`, { token: tokens.commenter, json: { content: 'a public remark' } }), 201).id;

    before = await ownerView();
  });

  it('sets up records the owner and the friend can see (so a refusal below means refused, not missing)', async () => {
    const view = before as Record<string, { status: number }>;
    for (const [name, read] of Object.entries(view)) expect([name, read.status]).toEqual([name, 200]);
    expect((await get(`/v2/note/${r.notes.friend}`, { token: tokens.friend })).status).toBe(200);
    expect((await get(`/v2/event/${EVENT}`, { token: tokens.friend })).status).toBe(200);
    expect((await get(r.pictures[0].replace(/^https?:\/\/[^/]+/, ''))).status).toBe(200);
  });

  it.each(ROWS.map((row) => [`${row.area}: ${row.what}, as ${row.as}`, row] as const))('%s', async (_, row) => {
    const res = await row.send(r, row.as === 'anonymous' ? undefined : tokens[row.as]);
    if (row.expect === 'hidden') {
      expect(res.status).toBe(200);
    } else if (row.expect === 'own entry') {
      expect(res.status).toBe(201);
      expect(res.body.user_id).toBe(intruder.id);
    } else {
      expectCleanError(res, row.expect[0], row.expect[1]);
    }
    expect(res.text).not.toContain(SECRET);
    if (row.absent) expect(res.text).not.toContain(row.absent);
  });

  it("leaves every record of the owner exactly as it was", async () => {
    expect(await ownerView()).toEqual(before);
  });
});
