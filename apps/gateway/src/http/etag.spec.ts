import { createHash } from 'node:crypto';
import { etagMatches, etagOf } from './etag';

describe('etagOf', () => {
  it('is the quoted base64url SHA-1 of the bytes, the same for a string and its UTF-8 bytes', () => {
    const body = '{"title":"春天","rating":{"average":"8.1"}}';
    const expected = `"${createHash('sha1').update(Buffer.from(body, 'utf8')).digest('base64url')}"`;
    expect(etagOf(body)).toBe(expected);
    expect(etagOf(Buffer.from(body, 'utf8'))).toBe(expected);
  });

  it('differs when one byte differs', () => {
    expect(etagOf('{"a":1}')).not.toBe(etagOf('{"a":2}'));
  });
});

describe('etagMatches', () => {
  const etag = etagOf('{"a":1}');
  it('matches the tag itself, its weak form, one of a list, and *', () => {
    expect(etagMatches(etag, etag)).toBe(true);
    expect(etagMatches(`W/${etag}`, etag)).toBe(true);
    expect(etagMatches(`"other", ${etag}`, etag)).toBe(true);
    expect(etagMatches(' * ', etag)).toBe(true);
  });
  it('does not match another tag or no header', () => {
    expect(etagMatches('"other"', etag)).toBe(false);
    expect(etagMatches(undefined, etag)).toBe(false);
  });
});
