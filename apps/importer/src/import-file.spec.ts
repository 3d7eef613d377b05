import { ImportBatch, ImportLine } from '@plaza/contracts';
import { ImportPlan, loadPlan } from './import-file';

const line = (n: number, kind: string, id: string): ImportLine => ({ line: n, kind, record: { id } });

describe('loadPlan', () => {
  it('sends every batch of a service with the largest ids of its whole part of the file (docs/api/import.md)', async () => {
    const notes = Array.from({ length: 450 }, (_, i) => line(i + 1, 'note', String(1000 + i)));
    const comments = [line(451, 'note_comment', '77'), line(452, 'note_comment', '9')];
    const plan: ImportPlan = { byService: new Map([['book', [line(500, 'book', '999999')]], ['note', [...notes, ...comments]]]), total: 453, kinds: ['book', 'note', 'note_comment'], problems: [] };
    const sent: Array<{ subject: string; batch: ImportBatch }> = [];
    const bus = {
      request: jest.fn(async (message: { subject: string }, batch: ImportBatch) => {
        sent.push({ subject: message.subject, batch });
        return { results: batch.lines.map((l) => ({ line: l.line, ok: true })) };
      }),
    };
    const summary = await loadPlan(plan, bus as never);
    expect(summary.loaded).toEqual({ book: 1, note: 450, note_comment: 2 });
    const noteBatches = sent.filter((s) => s.subject === 'note.v1.import.batch');
    expect(noteBatches.map((s) => s.batch.lines.length)).toEqual([200, 200, 50, 2]);
    // the first batch already names the last batch's ids; a book is not a sequenced kind
    for (const { batch } of noteBatches) expect(batch.idsUpTo).toEqual({ note: 1449, note_comment: 77 });
    expect(sent.find((s) => s.subject === 'book.v1.import.batch')?.batch).toEqual({ lines: [line(500, 'book', '999999')] });
  });
});
