import { BSON } from 'mongodb';
import { Socket } from 'node:net';

/**
 * Whether the program on a port is the engine the stack started, not merely something that
 * accepts connections: another program that took the port first accepts them too, while the
 * engine dies of "address already in use" (docs/DEVELOPING.md, "Tests"). Each check is
 * the engine's own first exchange, answered before any authentication:
 * - a MongoDB-wire engine (FerretDB, mongod) answers a `hello` OP_MSG with an OP_MSG;
 * - nats-server greets every connection with an `INFO {...}` line.
 */
export type EngineProtocol = 'mongodb' | 'nats';

const OP_MSG = 2013;
const HEADER_BYTES = 16;
const HELLO_REQUEST_ID = 1;

export function engineAnswers(protocol: EngineProtocol, port: number, host = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let received = Buffer.alloc(0);
    const finish = (answered: boolean) => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(timeoutMs);
    socket.once('timeout', () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('close', () => finish(false));
    socket.once('connect', () => {
      if (protocol === 'mongodb') socket.write(helloMessage());
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const verdict = protocol === 'mongodb' ? isHelloReply(received) : isNatsGreeting(received);
      if (verdict !== undefined) finish(verdict);
    });
    socket.connect(port, host);
  });
}

/** `{ hello: 1, $db: 'admin' }` as an OP_MSG: header, flag bits, one body section (kind 0). */
export function helloMessage(): Buffer {
  const body = BSON.serialize({ hello: 1, $db: 'admin' });
  const header = Buffer.alloc(HEADER_BYTES + 4 + 1);
  header.writeInt32LE(HEADER_BYTES + 4 + 1 + body.length, 0);
  header.writeInt32LE(HELLO_REQUEST_ID, 4);
  header.writeInt32LE(0, 8);
  header.writeInt32LE(OP_MSG, 12);
  header.writeUInt32LE(0, 16);
  header.writeUInt8(0, 20);
  return Buffer.concat([header, body]);
}

/** undefined until a whole header has arrived; then whether it answers the hello as an OP_MSG. */
function isHelloReply(received: Buffer): boolean | undefined {
  if (received.length < HEADER_BYTES) return undefined;
  return received.readInt32LE(8) === HELLO_REQUEST_ID && received.readInt32LE(12) === OP_MSG;
}

/** undefined until five bytes have arrived; then whether they open nats-server's greeting. */
function isNatsGreeting(received: Buffer): boolean | undefined {
  if (received.length < 5) return undefined;
  return received.subarray(0, 5).toString('latin1') === 'INFO ';
}
