import { ApiError } from '@plaza/contracts';
import { NatsConnection } from 'nats';
import { outcomeOf, ServiceBus } from './service-bus';

describe('outcomeOf (the outcome label of NATS request metrics)', () => {
  it('names a service’s error by its code and anything else as an internal error', () => {
    expect(outcomeOf(new ApiError('book_not_found'))).toBe('6000');
    expect(outcomeOf(new Error('boom'))).toBe('1100');
  });

  it('tells a timeout and a missing responder from a service that answered 503 or 504 itself', async () => {
    const published: Array<{ reply?: string }> = [];
    const subscribers: Array<(err: unknown, msg: unknown) => void> = [];
    const nc = {
      subscribe: (_subject: string, opts: { callback: (err: unknown, msg: unknown) => void }) => {
        subscribers.push(opts.callback);
        return { isClosed: () => false };
      },
      publish: (_subject: string, _data: Uint8Array, opts: { reply?: string }) => published.push(opts),
    } as unknown as NatsConnection;
    const bus = new ServiceBus(nc, 50);
    const message = { subject: 'book.v1.book.get' } as never;

    await expect(bus.request(message, {})).rejects.toMatchObject({ code: 1102, outcome: 'timeout' });
    const waiting = bus.request(message, {});
    await new Promise((r) => setImmediate(r));
    // the server's "no responders" status: an empty message with a 503 header
    subscribers[0](null, { subject: published[1].reply, data: new Uint8Array(0), headers: { code: 503 } });
    const noResponders = await waiting.catch((err: unknown) => err);
    expect(outcomeOf(noResponders)).toBe('no_responders');
    expect(outcomeOf(new ApiError('service_unavailable'))).toBe('1101');
  });
});
