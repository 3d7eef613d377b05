import { MovieCelebrity, MovieSubject, SimpleSubject } from '@plaza/contracts';
import { Caps, cutText } from './caps';
import { simpleRating, userRating } from './ratings';
import { albumKey, newestKey, popularKey } from './sort-keys';
import { celebrityForTier, SUBJECT_ADVANCE_FIELDS, subjectForTier, withSubjectForTier } from './tiers';

describe('simpleRating', () => {
  it.each([[9.6, 9.6, 50], [7.3, 7.3, 35], [9.56, 9.6, 50], [8.04, 8, 40], [4.5, 4.5, 25], [0, 0, 0], [undefined, 0, 0], [12, 10, 50], [-1, 0, 0]])(
    '%p -> average %p, stars %p', (given, average, stars) => {
      expect(simpleRating(given)).toEqual({ min: 0, max: 10, average, stars });
    },
  );

  it('rates reviews and comments out of 5, 0 when unrated', () => {
    expect(userRating(4)).toEqual({ min: 0, max: 5, value: 4 });
    expect(userRating(undefined)).toEqual({ min: 0, max: 5, value: 0 });
  });
});

describe('cutText', () => {
  it('cuts by characters, never splitting a surrogate pair', () => {
    expect(cutText('😀'.repeat(150), Caps.commentContent)).toBe('😀'.repeat(140));
    expect(cutText('短'.repeat(101), Caps.reviewSummary)).toHaveLength(100);
    expect(cutText('short', 100)).toBe('short');
  });
});

describe('sort keys', () => {
  const t = (s: number) => new Date(Date.UTC(2021, 0, 1, 0, 0, s));
  const order = (keys: Array<[string, string]>) => [...keys].sort((a, b) => (a[1] < b[1] ? -1 : 1)).map(([id]) => id);

  it('orders an album oldest first, then by id', () => {
    expect(order([['c', albumKey(t(2), '3')], ['a', albumKey(t(1), '9')], ['b', albumKey(t(2), '10')]])).toEqual(['a', 'c', 'b']);
  });

  it('orders reviews most useful first, then newest, then the higher id', () => {
    expect(order([['low', popularKey(1, t(9), '1')], ['old', popularKey(50, t(1), '2')], ['new', popularKey(50, t(5), '3')], ['hi-id', popularKey(50, t(5), '10')]]))
      .toEqual(['hi-id', 'new', 'old', 'low']);
  });

  it('orders comments newest first', () => {
    expect(order([['a', newestKey(t(1), '1')], ['c', newestKey(t(3), '2')], ['b', newestKey(t(2), '3')]])).toEqual(['c', 'b', 'a']);
  });
});

describe('tier projection', () => {
  const simple = { id: '1', title: 'T', pubdates: ['2020'] } as SimpleSubject;

  it('leaves every A field out for the basic tier and keeps everything for advance and premium', () => {
    const subject = Object.fromEntries(['id', 'title', ...SUBJECT_ADVANCE_FIELDS].map((k) => [k, k])) as unknown as MovieSubject;
    expect(Object.keys(subjectForTier(subject, 'basic'))).toEqual(['id', 'title']);
    expect(subjectForTier(subject, 'advance')).toBe(subject);
    expect(subjectForTier(subject, 'premium')).toBe(subject);
  });

  it('drops pubdates from nested Simple Subjects for the basic tier', () => {
    const celebrity = { id: '1', name: 'n', summary: 's', photos: [], works: [simple] } as unknown as MovieCelebrity;
    expect(celebrityForTier(celebrity, 'basic')).toEqual({ id: '1', name: 'n', works: [{ id: '1', title: 'T' }] });
    expect(withSubjectForTier({ rank: 1, subject: simple }, 'basic')).toEqual({ rank: 1, subject: { id: '1', title: 'T' } });
    expect(withSubjectForTier({ rank: 1, subject: simple }, 'advance').subject.pubdates).toEqual(['2020']);
  });
});
