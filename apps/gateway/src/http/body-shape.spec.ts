import multipart from '@fastify/multipart';
import Fastify from 'fastify';
import { Readable } from 'node:stream';
import { checkBodyShape, MAX_BODY_DEPTH, MAX_BODY_FIELDS, registerBodyShapeRules, whenBodyStarts } from './body-shape';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

describe('checkBodyShape', () => {
  it('accepts the bodies the API takes', () => {
    expect(() => checkBodyShape({ title: 't', content: 'c', tags: ['a', 'b'], rating: 5 })).not.toThrow();
    expect(() => checkBodyShape(undefined)).not.toThrow();
    expect(() => checkBodyShape('text')).not.toThrow();
    expect(() => checkBodyShape(Object.fromEntries(Array.from({ length: MAX_BODY_FIELDS }, (_, i) => [`k${i}`, 'v'])))).not.toThrow();
    expect(() => checkBodyShape(nested(MAX_BODY_DEPTH - 1))).not.toThrow();
  });

  it('rejects too many fields with 413/1103', () => {
    const body = Object.fromEntries(Array.from({ length: MAX_BODY_FIELDS + 1 }, (_, i) => [`k${i}`, 'v']));
    expect(() => checkBodyShape(body)).toThrow(expect.objectContaining({ status: 413, code: 1103 }));
    expect(() => checkBodyShape(new Array(MAX_BODY_FIELDS + 1).fill(1))).toThrow(expect.objectContaining({ code: 1103 }));
  });

  it('rejects deep nesting with 400/1016, without recursion', () => {
    expect(() => checkBodyShape(nested(MAX_BODY_DEPTH + 1))).toThrow(expect.objectContaining({ status: 400, code: 1016 }));
    expect(() => checkBodyShape({ a: nested(100_000) })).toThrow(expect.objectContaining({ code: 1016 }));
  });
});

describe('registerBodyShapeRules: an empty body with any declared type is an empty body', () => {
  const app = Fastify();
  app.post('/echo', async (request) => ({ body: request.body ?? null }));
  // multipart reads the raw request itself, so the first chunk must be back in that very stream
  app.post('/parts', async (request) => {
    const fields: Record<string, unknown> = {};
    for await (const part of request.parts()) if (part.type === 'field') fields[part.fieldname] = part.value;
    return fields;
  });
  beforeAll(async () => {
    await app.register(multipart);
    registerBodyShapeRules(app);
    await app.ready();
  });
  afterAll(() => app.close());

  /** A JSON request streamed chunked (no Content-Length), in the given pieces. */
  const chunked = (...pieces: string[]) =>
    app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      payload: Readable.from(pieces.map((p) => Buffer.from(p))),
    });

  it('answers an empty chunked body as no body (before: the JSON parser\'s empty-body 400)', async () => {
    const res = await chunked();
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 200, body: { body: null } });
  });

  it('still parses a chunked body that has bytes, its first chunk put back', async () => {
    const res = await chunked('{"title":', '"t"}');
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 200, body: { body: { title: 't' } } });
  });

  it('still reads a chunked multipart body', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/parts',
      headers: { 'content-type': 'multipart/form-data; boundary=b', 'transfer-encoding': 'chunked' },
      payload: Readable.from(['--b\r\nContent-Disposition: form-data; name="title"\r\n\r\n', 't\r\n--b--\r\n'].map((p) => Buffer.from(p))),
    });
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 200, body: { title: 't' } });
  });

  it('answers a declared type with a length of 0 as no body', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json', 'content-length': '0' } });
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 200, body: { body: null } });
  });
});

describe('whenBodyStarts', () => {
  it('passes on a failing stream (an aborted upload) as the client\'s 400', async () => {
    const stream = new Readable({ read() { this.destroy(new Error('aborted')); } });
    const err = await new Promise<Error | null>((resolve) => whenBodyStarts(stream, (e) => resolve(e)));
    expect(err).toMatchObject({ message: 'aborted', statusCode: 400 });
  });
});
