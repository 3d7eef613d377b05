import { BookMessages, Caller, cacheValidationMetadata, UserCollectionsRequest } from '@plaza/contracts';
import { createMessageValidationPipe } from './rpc-error.filter';

// A service reads a message of any gateway release: one of an earlier release still carries the
// token's scopes in its caller, which is dropped as unknown (docs/DECISIONS.md, "Scopes are
// checked at the gateway").

cacheValidationMetadata();
const pipe = createMessageValidationPipe();
const metadata = { type: 'body' as const, metatype: BookMessages.userCollections.request };
const message = (caller: object) => ({ user: 'alice', query: {}, page: { start: 0, count: 20 }, caller });

describe('the message validation pipe and the caller', () => {
  it('reads a caller without scopes', async () => {
    const read = (await pipe.transform(message({ userId: '7', clientId: 'app', tier: 'premium' }), metadata)) as UserCollectionsRequest;
    expect(read.caller).toEqual(Object.assign(new Caller(), { userId: '7', clientId: 'app', tier: 'premium' }));
  });

  it("reads an earlier gateway's caller with scopes, and drops them", async () => {
    const read = (await pipe.transform(message({ userId: '7', tier: 'basic', scopes: ['book_basic_r'] }), metadata)) as UserCollectionsRequest;
    expect(read.caller.userId).toBe('7');
    expect(read.caller).not.toHaveProperty('scopes');
  });

  it('still refuses a caller of no known tier', async () => {
    await expect(pipe.transform(message({ userId: '7', tier: 'gold' }), metadata)).rejects.toMatchObject({ code: 1016, status: 400 });
  });
});
