import { contributionDelta, isEmptyDelta } from './contributions';

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
