import { ENDPOINT_LIST } from './endpoint-table';
import { methodsForPath, toFastifyPath, toRegExp } from './route-patterns';

describe('route patterns', () => {
  it('turns the path wildcards (docs/api/README.md, "Addresses") into fastify regex parameters', () => {
    expect(toFastifyPath('/v2/book/:id/tags')).toBe('/v2/book/:id(^[0-9]+$)/tags');
    expect(toFastifyPath('/v2/book/user/:name/tags')).toBe('/v2/book/user/:name(^[A-Za-z0-9._-]+$)/tags');
  });

  it('matches :id with digits only and :name with letters, digits and -_.', () => {
    expect(toRegExp('/v2/book/:id').test('/v2/book/123')).toBe(true);
    expect(toRegExp('/v2/book/:id').test('/v2/book/12a')).toBe(false);
    expect(toRegExp('/v2/book/user/:name/tags').test('/v2/book/user/a.b-c_9/tags')).toBe(true);
    expect(toRegExp('/v2/book/user/:name/tags').test('/v2/book/user/a%20b/tags')).toBe(false);
  });

  it('knows every method a path answers to', () => {
    expect([...methodsForPath('/v2/book/1/collection')].sort()).toEqual(['DELETE', 'GET', 'POST', 'PUT']);
    expect([...methodsForPath('/v2/note/5')].sort()).toEqual(['DELETE', 'GET', 'POST', 'PUT']);
    expect(methodsForPath('/v2/book/x/collection').size).toBe(0);
  });

  it('has one row per method and path', () => {
    const keys = ENDPOINT_LIST.map((e) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives every /v2 endpoint a scope (docs/api/README.md, "Tiers and scopes"), except the picture bytes', () => {
    for (const e of ENDPOINT_LIST) {
      if (e.name === 'pictureGet') expect(e.scope).toBeNull();
      else expect(e.scope).not.toBeNull();
      expect(e.path.startsWith('/v2/')).toBe(true);
    }
  });
});
