import { ApiError } from '@plaza/contracts';
import { ServerNats } from '@nestjs/microservices';
import { NatsConnection } from 'nats';
import { Observable, of, throwError } from 'rxjs';
import { ServiceBus } from './service-bus';
import { replyPacketWithJson, responseBytesOf, ServiceJson } from './service-json';

const ID = '0b7f6f7e-3c55-4d0e-9a57-3f1c2f8b9e10';

/** The reply packets a real @nestjs/microservices NATS server sends for `answer$` to a request with `id`. */
async function nestReplies(answer$: Observable<unknown>, id = ID): Promise<Uint8Array[]> {
  const server = new ServerNats({});
  const sent: Uint8Array[] = [];
  const natsMsg = { reply: '_INBOX.x', respond: (data: Uint8Array) => sent.push(data) };
  const publish = (server as unknown as { getPublisher(msg: unknown, id: string, ctx: unknown): (packet: unknown) => void }).getPublisher(natsMsg, id, {});
  server.send(answer$, publish);
  await new Promise((resolve) => setTimeout(resolve, 5));
  return sent;
}

describe('responseBytesOf (a Nest NATS reply’s answer as its own bytes)', () => {
  it('cuts out exactly the JSON of the answer a Nest server sent', async () => {
    const answer = { count: 2, collections: [{ id: 'é€😀\u2028', tags: ['a"b', '\\'] }, { id: '2', rating: null }] };
    const [reply] = await nestReplies(of(answer));
    const bytes = responseBytesOf(reply, ID);
    expect(bytes?.toString('utf8')).toBe(JSON.stringify(answer));
  });

  it('gives nothing for an error, an empty answer, another request’s id or a changed format', async () => {
    const [error] = await nestReplies(throwError(() => ({ code: 6000, msg: 'book_not_found', status: 404 })));
    expect(responseBytesOf(error, ID)).toBeUndefined();
    const [empty] = await nestReplies(of(undefined));
    expect(responseBytesOf(empty, ID)).toBeUndefined();
    const [answered] = await nestReplies(of({ id: 1 }));
    expect(responseBytesOf(answered, ID.replace('0', '1'))).toBeUndefined();
    const withoutDisposed = Buffer.from(`{"response":{"id":1},"id":"${ID}"}`);
    expect(responseBytesOf(withoutDisposed, ID)).toBeUndefined();
  });

  it('copies the bytes out of the buffer they were read into', async () => {
    const [reply] = await nestReplies(of({ id: 1 }));
    const bytes = responseBytesOf(reply, ID) as Buffer;
    reply.fill(0);
    expect(bytes.toString()).toBe('{"id":1}');
  });
});

describe('replyPacketWithJson (a service’s answer given as JSON bytes)', () => {
  it('writes the very reply Nest writes for the same answer as an object', async () => {
    const answer = { start: 0, count: 1, collections: [{ book: { title: '春天' }, id: 3 }] };
    const [nest] = await nestReplies(of(answer));
    const ours = replyPacketWithJson({ response: new ServiceJson(Buffer.from(JSON.stringify(answer))), isDisposed: true, id: ID });
    expect(ours?.toString()).toBe(Buffer.from(nest).toString());
    expect(responseBytesOf(ours as Buffer, ID)?.toString()).toBe(JSON.stringify(answer));
  });

  it('leaves any other packet to Nest’s serializer', () => {
    expect(replyPacketWithJson({ response: { id: 1 } })).toBeUndefined();
    expect(replyPacketWithJson({ err: { code: 6000 } } as never)).toBeUndefined();
  });
});

describe('ServiceBus.forward', () => {
  function busAnsweringWith(reply: (id: string) => Promise<Uint8Array>): ServiceBus {
    let onReply: (err: unknown, msg: unknown) => void = () => undefined;
    const nc = {
      subscribe: (_subject: string, opts: { callback: (err: unknown, msg: unknown) => void }) => {
        onReply = opts.callback;
        return { isClosed: () => false };
      },
      publish: (_subject: string, data: Uint8Array, opts: { reply: string }) => {
        const { id } = JSON.parse(Buffer.from(data).toString()) as { id: string };
        void reply(id).then((answer) => onReply(null, { subject: opts.reply, data: answer }));
      },
    } as unknown as NatsConnection;
    return new ServiceBus(nc, 1000);
  }
  const message = { subject: 'book.v1.user.collections' } as never;

  it('answers with the service’s bytes, parsed only when asked', async () => {
    const answer = { count: 1, collections: [{ id: '7', comment: 'ünïcode' }] };
    const bus = busAnsweringWith(async (id) => (await nestReplies(of(answer), id))[0]);
    const json = (await bus.forward(message, {})) as ServiceJson;
    expect(json).toBeInstanceOf(ServiceJson);
    expect(json.bytes.toString()).toBe(JSON.stringify(answer));
    expect(json.value()).toEqual(answer);
  });

  it('throws the service’s error as the ApiError it was, as request does', async () => {
    const bus = busAnsweringWith(async (id) => (await nestReplies(throwError(() => new ApiError('book_not_found').toPayload()), id))[0]);
    await expect(bus.forward(message, {})).rejects.toMatchObject({ code: 6000, status: 404 });
  });

  it('parses a reply of another shape and still answers with its JSON, and nothing for no answer', async () => {
    const bus = busAnsweringWith(async (id) => Buffer.from(`{"id":"${id}","response":{"n":1}}`));
    const json = await bus.forward(message, {});
    expect(json?.bytes.toString()).toBe('{"n":1}');
    const empty = await busAnsweringWith(async (id) => (await nestReplies(of(undefined), id))[0]).forward(message, {});
    expect(empty).toBeUndefined();
  });
});
