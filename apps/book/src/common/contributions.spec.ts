import { tagKey } from '../books/book-view';
import { aggregateContributions, contributionDelta, isEmptyDelta, movedBy, noUserAggregates } from './contributions';

describe('contributions to a book\'s aggregates', () => {
  it('adds a new rating as 2r and its tags', () => {
    const delta = contributionDelta(undefined, { rating: 4, tags: ['a', 'b', 'a'] });
    expect(delta).toEqual({ raters: 1, ratingSum: 8, tags: new Map([['a', 1], ['b', 1]]) });
  });

  it('replaces a rating and moves only the tags that changed', () => {
    const delta = contributionDelta({ rating: 2, tags: ['a', 'b'] }, { rating: 5, tags: ['b', 'c'] });
    expect(delta).toEqual({ raters: 0, ratingSum: 6, tags: new Map([['a', -1], ['c', 1]]) });
  });

  it('removes a rater when the rating goes, and everything on delete', () => {
    expect(contributionDelta({ rating: 3 }, { rating: undefined })).toMatchObject({ raters: -1, ratingSum: -6 });
    expect(contributionDelta({ rating: 1, tags: ['x'] }, undefined)).toEqual({ raters: -1, ratingSum: -2, tags: new Map([['x', -1]]) });
  });

  it('knows when nothing changes', () => {
    expect(isEmptyDelta(contributionDelta({ rating: 3, tags: ['x'] }, { rating: 3, tags: ['x'] }))).toBe(true);
  });
});

describe('a book\'s users\' aggregates from their sources', () => {
  it('counts each rating as 2r and an entry\'s tags once each, by book', () => {
    const counted = aggregateContributions([
      { book_id: 'a', rating: 4, tags: ['诗', '诗', 'Poetry'] },
      { book_id: 'a', rating: null, tags: ['诗'] },
      { book_id: 'a', rating: 2 }, // a review: a rating, no tags
      { book_id: 'b', tags: [] },
    ]);
    expect(counted.get('a')).toEqual({ num: 2, sum: 12, tags: { [tagKey('诗')]: 2, [tagKey('Poetry')]: 1 } });
    expect(counted.get('b')).toEqual({ num: 0, sum: 0, tags: {} });
  });

  it('moves them by a difference, as the writes do, and ends where counting the sources again ends', () => {
    const before = { rating: 3, tags: ['x', 'y'] };
    const after = { rating: 5, tags: ['y', 'z'] };
    const start = aggregateContributions([{ book_id: 'a', ...before }]).get('a') ?? noUserAggregates();
    const moved = movedBy(start, contributionDelta(before, after));
    expect(moved).toEqual(aggregateContributions([{ book_id: 'a', ...after }]).get('a'));
    // a tag whose count falls to 0 is dropped, and the original is left as it was
    expect(Object.keys(moved.tags)).not.toContain(tagKey('x'));
    expect(start.tags[tagKey('x')]).toBe(1);
  });
});
