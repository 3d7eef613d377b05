import { BSON } from 'mongodb';
import { createServer, Server, Socket } from 'node:net';
import { engineAnswers, helloMessage } from './engine-handshake';

/** A server on a free loopback port that treats each connection with `onConnection`. */
async function serve(onConnection: (socket: Socket) => void): Promise<{ port: number; server: Server }> {
  const server = createServer((socket) => {
    sockets.push(socket);
    onConnection(socket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as { port: number }).port, server };
}

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});
async function on(onConnection: (socket: Socket) => void): Promise<number> {
  const { port, server } = await serve(onConnection);
  servers.push(server);
  return port;
}

/** Answers an OP_MSG with an OP_MSG header that names the request it answers. */
const mongoLike = (socket: Socket) => socket.once('data', (d: Buffer) => {
  const reply = Buffer.alloc(16);
  reply.writeInt32LE(16, 0);
  reply.writeInt32LE(d.readInt32LE(4), 8);
  reply.writeInt32LE(2013, 12);
  socket.end(reply);
});

describe('engineAnswers', () => {
  it('sends a hello a MongoDB-wire engine can read: an OP_MSG whose body section is { hello: 1, $db: "admin" }', () => {
    const message = helloMessage();
    expect(message.readInt32LE(0)).toBe(message.length);
    expect(message.readInt32LE(12)).toBe(2013);
    expect(message.readUInt8(20)).toBe(0);
    expect(BSON.deserialize(message.subarray(21))).toEqual({ hello: 1, $db: 'admin' });
  });

  it('knows a MongoDB-wire engine by its reply to the hello, and nats-server by its INFO greeting', async () => {
    expect(await engineAnswers('mongodb', await on(mongoLike))).toBe(true);
    expect(await engineAnswers('nats', await on((s) => s.end('INFO {"server_id":"x"}\r\n')))).toBe(true);
  });

  it('does not take a program that only accepts connections, closes them, or speaks another protocol for the engine', async () => {
    const silent = await on(() => undefined);
    expect(await engineAnswers('mongodb', silent, '127.0.0.1', 300)).toBe(false);
    expect(await engineAnswers('nats', silent, '127.0.0.1', 300)).toBe(false);
    const closing = await on((s) => s.destroy());
    expect(await engineAnswers('mongodb', closing)).toBe(false);
    expect(await engineAnswers('nats', closing)).toBe(false);
    const http = await on((s) => s.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    expect(await engineAnswers('mongodb', http)).toBe(false);
    expect(await engineAnswers('nats', http)).toBe(false);
    // the wrong engine: each protocol's check refuses the other's server
    expect(await engineAnswers('nats', await on(mongoLike), '127.0.0.1', 300)).toBe(false);
    expect(await engineAnswers('mongodb', await on((s) => s.end('INFO {}\r\n')))).toBe(false);
  });

  it('answers false on a port nothing listens on', async () => {
    const { port, server } = await serve(() => undefined);
    await new Promise((r) => server.close(r));
    expect(await engineAnswers('mongodb', port)).toBe(false);
  });
});
