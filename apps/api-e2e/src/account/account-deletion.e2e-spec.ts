import { erasureMessage } from '@plaza/contracts';
import { ServiceBus } from '@plaza/platform';
import { connect } from 'nats';
import { passwordGrant, tokenFor } from '../support/auth';
import { exclusive } from '../support/exclusive';
import { Apps, ONE_PIXEL_PNG, PASSWORD, user } from '../support/fixtures';
import { startGateway } from '../support/gateways';
import { del, expectError, expectStatus, get, post } from '../support/http';
import { fixtureRecord, importRecords } from '../support/import';
import { natsOptionsAs } from '../support/stack-info';

/**
 * Account deletion (docs/api/account.md): the password confirms it; the user's records and
 * pictures go in every area, the counters others see follow, every token of the user is refused
 * at once on every gateway, and the uid and id cannot be imported for someone else while held.
 * Users and records of its own (8 900 000s), so no other suite sees them.
 */

const victim = user('8901', 'del_victim', 'Victim');
const friend = user('8902', 'del_friend', 'Friend');
const other = user('8903', 'del_other', 'Other');
const BOOK = '8900001';
const EVENT = '8900001';

const PNG = ONE_PIXEL_PNG;

const review = (title: string) => ({ book: BOOK, title, content: `${title}: ${'这本书写得很好，值得一读。'.repeat(16)}`, rating: 5 });

describe('POST /v2/user/~me/delete', () => {
  beforeAll(() => {
    const run = importRecords([
      ...[victim, friend, other].map((u) => ({ kind: 'user', id: u.id, uid: u.uid, name: u.name, password: PASSWORD })),
      { kind: 'friendship', user_id: victim.id, friend_id: friend.id },
      { ...fixtureRecord('book.ndjson', 'book'), id: BOOK, title: '删除账户之书', isbn10: undefined, isbn13: undefined, rating: { numRaters: 0, average: 0 }, tags: [] },
      // a city of its own: the shared stack's list suites count every event of their cities
      { kind: 'loc', id: '890001', uid: 'account-deletion-city', name: '删除账户城', parent: 'china' },
      { ...fixtureRecord('event.ndjson', 'event'), id: EVENT, title: '删除账户的活动', album: undefined, owner: { id: other.id }, loc_id: '890001' },
    ]);
    expect(run.status).toBe(0);
  });

  it('erases the user\'s records everywhere, keeps counters right, refuses their tokens at once on every gateway, and holds the uid', async () => {
    const replica = await startGateway({});
    try {
      const tv = await tokenFor(victim);
      const tf = await tokenFor(friend);
      const to = await tokenFor(other);
      const second = await passwordGrant(victim);

      // what the victim leaves: a rated collection entry, a review, an annotation; notes (one with a picture),
      // a comment and a like on a friend's note; a participation and an interest
      expectStatus(await post(`/v2/book/${BOOK}/collection`, { token: tv, form: { status: 'read', rating: 5, tags: '删除 标签', comment: 'mine' } }), 201);
      expectStatus(await post(`/v2/book/${BOOK}/collection`, { token: to, form: { status: 'read', rating: 3, tags: '删除' } }), 201);
      const victimReview = await post('/v2/book/reviews', { token: tv, form: review('Victim review') });
      expectStatus(victimReview, 201);
      expectStatus(await post('/v2/book/reviews', { token: to, form: review('Other review') }), 201);
      const annotation = await post(`/v2/book/${BOOK}/annotations`, { token: tv, form: { content: '这是一条关于这本书的读书笔记，写得足够长了。', page: 3 } });
      expectStatus(annotation, 201);
      const friendNote = await post('/v2/notes', { token: tf, json: { title: 'Friend note', content: 'A note by the friend' } });
      expectStatus(friendNote, 201);
      const victimNote = await exclusive('note-pictures', async () => {
        const form = new FormData();
        form.append('title', 'Victim note');
        form.append('content', 'With a picture <图片1>');
        form.append('privacy', 'private');
        form.append('image_1', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'p.png');
        return post('/v2/notes', { token: tv, multipart: form });
      });
      expectStatus(victimNote, 201);
      const pictureUrl = Object.values(victimNote.body.photos as Record<string, string>)[0];
      expect((await fetch(pictureUrl)).status).toBe(200);
      expectStatus(await post(`/v2/note/${victimNote.body.id}/comments`, { token: tv, form: { content: 'my own comment' } }), 201);
      expectStatus(await post(`/v2/note/${friendNote.body.id}/comments`, { token: tv, form: { content: 'a comment by the victim' } }), 201);
      expectStatus(await post(`/v2/note/${friendNote.body.id}/comments`, { token: to, form: { content: 'a comment by someone else' } }), 201);
      expectStatus(await post(`/v2/note/${friendNote.body.id}/like`, { token: tv }), 202);
      expectStatus(await post(`/v2/note/${friendNote.body.id}/like`, { token: to }), 202);
      expectStatus(await post(`/v2/event/${EVENT}/participants`, { token: tv }), 202);
      expectStatus(await post(`/v2/event/${EVENT}/wishers`, { token: tv }), 202);
      expectStatus(await post(`/v2/event/${EVENT}/wishers`, { token: to }), 202);

      const before = {
        book: (await get(`/v2/book/${BOOK}`, { token: to })).body.rating,
        note: (await get(`/v2/note/${friendNote.body.id}`, { token: tf })).body,
        event: (await get(`/v2/event/${EVENT}`, { token: to })).body,
      };
      // a collection entry's rating and a review's both count
      expect(before.book).toMatchObject({ numRaters: 4 });
      expect(before.note).toMatchObject({ liked_count: 2, comments_count: 2 });
      expect(before.event).toMatchObject({ participant_count: 1, wisher_count: 2 });
      // both gateways know the token (memoised as verified)
      expect((await get('/v2/user/~me', { token: tv, baseUrl: replica.baseUrl })).status).toBe(200);
      expect((await get(`/v2/book/annotation/${annotation.body.id}`, { token: to })).status).toBe(200);
      expectError(await del(`/v2/book/review/${victimReview.body.id}`, { token: to }), 403, 6002);

      // the password confirms it: none 400/1002, a wrong one 400/120, and nothing happened
      expectError(await post('/v2/user/~me/delete', { token: tv, form: {} }), 400, 1002);
      expectError(await post('/v2/user/~me/delete', { token: tv, form: { password: 'wrong password' } }), 400, 120);
      expectError(await post('/v2/user/~me/delete', { form: { password: PASSWORD } }), 403, 1000);
      expect((await get('/v2/user/~me', { token: tv })).status).toBe(200);

      const deleted = await post('/v2/user/~me/delete', { token: tv, json: { password: PASSWORD } });
      expect(deleted.status).toBe(202);
      expect(deleted.body).toEqual({ erased: expect.arrayContaining(['note', 'event', 'book']), pending: [] });

      // every token refused at once, on both gateways; no new ones
      for (const baseUrl of [undefined, replica.baseUrl]) {
        expectError(await get('/v2/user/~me', { token: tv, baseUrl }), 401, 103);
        expectError(await get('/v2/user/~me', { token: second.access_token, baseUrl }), 401, 103);
        expectError(await get(`/v2/book/${BOOK}`, { token: tv, baseUrl }), 401, 103);
      }
      expectError(await post('/auth2/token', { form: { grant_type: 'password', client_id: Apps.premium.clientId, client_secret: Apps.premium.secret, username: victim.uid, password: PASSWORD } }), 400, 120);
      expectError(await post('/auth2/token', { form: { grant_type: 'refresh_token', client_id: Apps.premium.clientId, client_secret: Apps.premium.secret, refresh_token: second.refresh_token } }), 400, 119);
      expectError(await get(`/v2/user/${victim.uid}`), 404, 6008);
      expectError(await get(`/v2/user/${victim.id}`), 404, 6008);

      // the records are gone, the picture too, and every counter others see follows
      expectError(await del(`/v2/book/review/${victimReview.body.id}`, { token: to }), 404, 6006);
      expectError(await get(`/v2/book/annotation/${annotation.body.id}`, { token: to }), 404, 1001);
      expectError(await get(`/v2/note/${victimNote.body.id}`, { token: tf }), 400, 1006);
      expect((await fetch(pictureUrl)).status).toBe(404);
      const book = (await get(`/v2/book/${BOOK}`, { token: to })).body;
      expect(book.rating).toMatchObject({ numRaters: 2 });
      // the other user's 3 and 5 stars remain: 4 of 5, shown out of 10
      expect(Number(book.rating.average)).toBeCloseTo(8, 5);
      const comments = (await get(`/v2/note/${friendNote.body.id}/comments`, { token: tf })).body;
      expect(comments.comments.map((c: { content: string }) => c.content)).toEqual(['a comment by someone else']);
      expect((await get(`/v2/note/${friendNote.body.id}`, { token: tf })).body).toMatchObject({ liked_count: 1, comments_count: 1 });
      expect((await get(`/v2/event/${EVENT}`, { token: to })).body).toMatchObject({ participant_count: 0, wisher_count: 1 });
      expect((await get(`/v2/event/${EVENT}/wishers`, { token: to })).body.users.map((u: { id: string }) => u.id)).toEqual([other.id]);
      expect((await get(`/v2/book/user/${victim.id}/collections`)).status).toBe(404);

      // erasing again finds nothing (only identity may ask; the gateway may not)
      const nc = await connect(natsOptionsAs('identity'));
      try {
        const bus = new ServiceBus(nc);
        for (const service of ['book', 'note', 'event'] as const) {
          const { erased } = await bus.request(erasureMessage(service), { user_id: victim.id }, { timeout: 10_000 });
          expect({ service, total: Object.values(erased).reduce((a, b) => a + b, 0) }).toEqual({ service, total: 0 });
        }
      } finally {
        await nc.close();
      }
      const gatewayNc = await connect(natsOptionsAs('gateway'));
      try {
        await expect(new ServiceBus(gatewayNc).request(erasureMessage('book'), { user_id: victim.id }, { timeout: 2000 })).rejects.toBeDefined();
      } finally {
        await gatewayNc.close();
      }

      // the uid and the id are held: an import may not give them to anyone
      const takeover = importRecords([
        { kind: 'user', id: '8999001', uid: victim.uid, name: 'Impostor', password: 'another password here' },
        { kind: 'user', id: victim.id, uid: 'del_impostor', name: 'Impostor', password: 'another password here' },
      ]);
      expect(takeover.status).toBe(1);
      expect(takeover.output).toContain(`uid ${victim.uid} belongs to an account deleted on`);
      expect(takeover.output).toContain(`id ${victim.id} belongs to an account deleted on`);
      expectError(await get(`/v2/user/${victim.uid}`), 404, 6008);
    } finally {
      await replica.stop();
    }
  }, 180_000);
});
