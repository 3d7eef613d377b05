import { importBatchMessage, ImportLine } from '@plaza/contracts';
import { ServiceBus } from '@plaza/platform';
import { connect, NatsConnection } from 'nats';
import { tokenFor } from '../support/auth';
import { PASSWORD, user } from '../support/fixtures';
import { get, post, put } from '../support/http';
import { importRecords } from '../support/import';
import { natsOptionsAs } from '../support/stack-info';

/**
 * An import reserves its file's ids before it writes (docs/api/import.md, "Users' content keeps
 * its ids"): a note or a review created through the API between two batches of one file takes an
 * id past every id of the file, and the file's later batch replaces nothing of it.
 *
 * The batches are sent here as `npm run import` sends them (as the importer's NATS user, each
 * naming the file's largest ids), one at a time, so that the API's write falls between them.
 * Ids are 14 digits from the clock: above any counter an earlier run on this stack left.
 */
const Rita = user('4101', 'import_ids_rita', 'Rita');
const Rex = user('4102', 'import_ids_rex', 'Rex');
const BOOK = '41010001';
const base = Date.now() * 10;
const fileId = (n: number) => String(base + n);

let lineNo = 0;
const line = (kind: string, record: Record<string, unknown>): ImportLine => ({ line: ++lineNo, kind, record });

describe('an import reserves its ids before its first batch (docs/api/import.md)', () => {
  let nc: NatsConnection;
  let bus: ServiceBus;
  let rex: string;

  beforeAll(async () => {
    const users = [Rita, Rex].map((u) => ({ kind: 'user', id: u.id, uid: u.uid, name: u.name, password: PASSWORD }));
    const imported = importRecords([...users, { kind: 'book', id: BOOK, title: '编号预留之书', author: ['测试'] }]);
    expect({ status: imported.status, stderr: imported.stderr }).toEqual({ status: 0, stderr: '' });
    rex = await tokenFor(Rex);
    nc = await connect({ ...natsOptionsAs('importer'), name: 'import-id-reservation-test' });
    bus = new ServiceBus(nc, 60_000);
  }, 60_000);

  afterAll(async () => {
    await nc?.close();
  });

  it('gives a note created between two batches an id past the file\'s, and the second batch leaves it as it is', async () => {
    const note = (n: number) => line('note', { id: fileId(n), author_id: Rita.id, title: `imported ${n}`, content: 'from the file', publish_time: '2024-05-01 10:00:00' });
    const idsUpTo = { note: Number(fileId(3)) };
    const first = await bus.request(importBatchMessage('note'), { lines: [note(1)], idsUpTo });
    expect(first.results.map((r) => r.ok)).toEqual([true]);

    const created = await post('/v2/notes', { token: rex, json: { title: 'written during the import', content: 'mine' } });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    expect(Number(id)).toBeGreaterThan(Number(fileId(3)));

    const second = await bus.request(importBatchMessage('note'), { lines: [note(2), note(3)], idsUpTo });
    expect(second.results.map((r) => r.ok)).toEqual([true, true]);
    expect((await get(`/v2/note/${id}`, { token: rex })).body).toMatchObject({ id, title: 'written during the import', content: 'mine', author: { id: Rex.id } });
    expect((await get(`/v2/note/${fileId(3)}`, { token: rex })).body).toMatchObject({ id: fileId(3), title: 'imported 3' });
  });

  it('reserves a file\'s review ids from its first batch, while the catalogue still loads', async () => {
    const review = (n: number) => line('book_review', { id: fileId(n), book_id: BOOK, author_id: Rita.id, title: `imported ${n}`, content: '从文件导入的评论。'.repeat(20), published: '2024-05-01 10:00:00' });
    const idsUpTo = { book_review: Number(fileId(2)) };
    // a file's series and books come before its users' content: the first batch writes a book only
    const catalogue = await bus.request(importBatchMessage('book'), { lines: [line('book', { id: BOOK, title: '编号预留之书', author: ['测试'] })], idsUpTo });
    expect(catalogue.results.map((r) => r.ok)).toEqual([true]);

    const created = await post('/v2/book/reviews', { token: rex, form: { book: BOOK, title: 'written during the import', content: '书'.repeat(151) } });
    expect(created.status).toBe(201);
    const id = (created.body as { id: number }).id;
    expect(id).toBeGreaterThan(Number(fileId(2)));

    const reviews = await bus.request(importBatchMessage('book'), { lines: [review(1), review(2)], idsUpTo });
    expect(reviews.results.map((r) => r.ok)).toEqual([true, true]);
    // a review has no read of its own: its author's edit answers with it, and only its author's
    const edited = await put(`/v2/book/review/${id}`, { token: rex, form: { title: 'still mine', content: '书'.repeat(151) } });
    expect({ status: edited.status, body: edited.body }).toMatchObject({ status: 202, body: { id, title: 'still mine', author: { id: Rex.id } } });
  });
});
