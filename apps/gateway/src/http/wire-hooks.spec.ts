import type { FastifyRequest } from 'fastify';
import { toFastifyPath } from '../endpoints/route-patterns';
import { routeTemplateOf } from './wire-hooks';

const requestFor = (url: string | undefined) => ({ routeOptions: { url } }) as unknown as FastifyRequest;

describe('routeTemplateOf (the route label of the HTTP metrics and spans)', () => {
  it('gives the endpoint table’s path, without the router’s parameter patterns', () => {
    expect(routeTemplateOf(requestFor(toFastifyPath('/v2/book/:id')))).toBe('/v2/book/:id');
    expect(routeTemplateOf(requestFor(toFastifyPath('/v2/book/user/:name/collections')))).toBe('/v2/book/user/:name/collections');
    expect(routeTemplateOf(requestFor(toFastifyPath('/v2/note/:id/comment/:cid')))).toBe('/v2/note/:id/comment/:cid');
    expect(routeTemplateOf(requestFor('/auth2/token'))).toBe('/auth2/token');
  });

  it('gives `unmatched` for a request no route matched, never its raw path', () => {
    expect(routeTemplateOf(requestFor(undefined))).toBe('unmatched');
  });
});
