import { ApiError } from '../errors/api-error';
import { validateInput } from '../validation/validation-errors';
import { AnnotationInput, CollectionInput, ReviewCreateInput, UserCollectionsQuery } from './book.inputs';
import { charCount, checkAnnotationPlacement, isPrivate, parseRfc3339, parseTags } from './book-validators';

async function codeOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return (err as ApiError).code;
  }
}

describe('book input rules', () => {
  it('splits tags on blanks and commas, once each, width-normalised', () => {
    expect(parseTags(' 小说  经典,Sci-Fi，小说\u3000ＡＢＣ ')).toEqual(['小说', '经典', 'Sci-Fi', 'ABC']);
    expect(parseTags(undefined)).toEqual([]);
  });

  it('counts characters as code points', () => {
    expect(charCount('🙂a字')).toBe(3);
  });

  it('reads RFC 3339 instants only', () => {
    expect(parseRfc3339('2024-05-01T08:00:00+08:00')?.toISOString()).toBe('2024-05-01T00:00:00.000Z');
    expect(parseRfc3339('2024-05-01T00:00:00.5Z')?.toISOString()).toBe('2024-05-01T00:00:00.500Z');
    for (const bad of ['2024-05-01', '2024-05-01T00:00:00', 'yesterday', '2024-02-30T00:00:00Z', '2024-05-01T25:00:00Z']) {
      expect(parseRfc3339(bad)).toBeUndefined();
    }
  });

  it('places an annotation by page or chapter: neither 1002, both 1016', () => {
    expect(() => checkAnnotationPlacement({})).toThrow(expect.objectContaining({ code: 1002 }));
    expect(() => checkAnnotationPlacement({ page: 1, chapter: 'a' })).toThrow(expect.objectContaining({ code: 1016 }));
    expect(() => checkAnnotationPlacement({ page: 1 })).not.toThrow();
  });

  it('treats private (and the shown integer 2) as private, anything else as public', () => {
    expect([isPrivate('private'), isPrivate('PRIVATE'), isPrivate('2'), isPrivate('public'), isPrivate(undefined), isPrivate('1')]).toEqual([
      true, true, true, false, false, false,
    ]);
  });

  it('gives the spec\'s codes for collection input', async () => {
    expect(await codeOf(validateInput(CollectionInput, {}))).toBe(1002);
    expect(await codeOf(validateInput(CollectionInput, { status: 'later' }))).toBe(1016);
    expect(await codeOf(validateInput(CollectionInput, { status: 'wish', comment: 'x'.repeat(351) }))).toBe(6010);
    expect(await codeOf(validateInput(CollectionInput, { status: 'wish', rating: '6' }))).toBe(1016);
    const ok = await validateInput(CollectionInput, { status: 'done', rating: '', comment: 'x'.repeat(350) });
    expect(ok.rating).toBeUndefined();
  });

  it('gives the spec\'s codes for annotation input', async () => {
    expect(await codeOf(validateInput(AnnotationInput, { page: '1' }))).toBe(1002);
    expect(await codeOf(validateInput(AnnotationInput, { content: ' '.repeat(20), page: '1' }))).toBe(1005);
    expect(await codeOf(validateInput(AnnotationInput, { content: 'x'.repeat(16), page: '1000000' }))).toBe(6012);
    expect(await codeOf(validateInput(AnnotationInput, { content: 'x'.repeat(16), chapter: 'c'.repeat(101) }))).toBe(6013);
    const ok = await validateInput(AnnotationInput, { content: 'x'.repeat(16), page: '999999', chapter: '' });
    expect(ok).toMatchObject({ page: 999999, chapter: undefined });
  });

  it('gives the spec\'s codes for review input', async () => {
    const content = 'x'.repeat(151);
    expect(await codeOf(validateInput(ReviewCreateInput, { title: 't', content }))).toBe(1002);
    expect(await codeOf(validateInput(ReviewCreateInput, { book: '1', content }))).toBe(1012);
    expect(await codeOf(validateInput(ReviewCreateInput, { book: '1', title: 't', content: content.slice(1) }))).toBe(6004);
    expect(await codeOf(validateInput(ReviewCreateInput, { book: '1', title: 't', content }))).toBeUndefined();
  });

  it('checks collection list filters', async () => {
    expect(await codeOf(validateInput(UserCollectionsQuery, { from: '2024-01-01' }))).toBe(1016);
    expect(await codeOf(validateInput(UserCollectionsQuery, { status: 'doing', from: '2024-01-01T00:00:00Z', rating: '5' }))).toBeUndefined();
  });
});
