import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { DrainingNatsServer } from './draining-nats.server';

describe('DrainingNatsServer replies', () => {
  const logger = { error: jest.fn(), info: jest.fn() } as unknown as Logger;
  const loopTurn = () => new Promise((resolve) => setImmediate(resolve));

  it('answers with a short error at once when the reply cannot be sent (too large for a message)', async () => {
    const server = new DrainingNatsServer({} as NatsConnection, { queue: 'q', logger });
    const sent: unknown[] = [];
    const respond = jest.fn((data: Uint8Array) => {
      if (respond.mock.calls.length === 1) throw new Error('MAX_PAYLOAD_EXCEEDED');
      sent.push(JSON.parse(new TextDecoder().decode(data)));
      return true;
    });
    const publish = server.getPublisher({ reply: '_INBOX.1', respond }, 'request-1', undefined as never);

    publish({ response: { huge: 'x' }, isDisposed: true } as never);
    await loopTurn();

    expect(respond).toHaveBeenCalledTimes(2);
    expect(sent).toEqual([{ id: 'request-1', isDisposed: true, err: expect.objectContaining({ code: 1100, status: 500 }) }]);
  });

  it('sends a reply that fits as it is', async () => {
    const server = new DrainingNatsServer({} as NatsConnection, { queue: 'q', logger });
    const sent: unknown[] = [];
    const respond = jest.fn((data: Uint8Array) => sent.push(JSON.parse(new TextDecoder().decode(data))) > 0);
    server.getPublisher({ reply: '_INBOX.2', respond }, 'request-2', undefined as never)({ response: { ok: 1 }, isDisposed: true } as never);
    await loopTurn();
    expect(sent).toEqual([{ id: 'request-2', response: { ok: 1 }, isDisposed: true }]);
  });
});
