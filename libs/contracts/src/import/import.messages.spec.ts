import 'reflect-metadata';
import { idsToReserve, largestSequencedIds } from './import.messages';

describe('largestSequencedIds', () => {
  it('takes the largest valid id of each kind whose ids the API also gives, as a string or a number', () => {
    expect(largestSequencedIds([
      { kind: 'note', record: { id: '120' } },
      { kind: 'note', record: { id: 99 } },
      { kind: 'note', record: { id: '1000000000000000' } }, // 16 digits: refused by its kind, not reserved
      { kind: 'note', record: { id: '12a' } },
      { kind: 'book_review', record: { id: '7' } },
      { kind: 'book', record: { id: '5000' } },
      { kind: 'note_like', record: { note_id: '9000' } },
    ])).toEqual({ note: 120, book_review: 7 });
  });
});

describe('idsToReserve', () => {
  it('takes the larger of the file\'s and the batch\'s own, and ignores what is not a positive safe integer', () => {
    const lines = [{ line: 1, kind: 'note', record: { id: '500' } }, { line: 2, kind: 'annotation', record: { id: '40' } }];
    expect(idsToReserve({ lines, idsUpTo: { note: 300, annotation: 90, collection: 2 ** 53, book: 10, note_comment: -1 } })).toEqual({ note: 500, annotation: 90 });
    expect(idsToReserve({ lines })).toEqual({ note: 500, annotation: 40 });
  });
});
