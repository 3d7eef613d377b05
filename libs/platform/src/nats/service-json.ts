/**
 * An answer held as JSON bytes: what a service sent, passed on by the gateway as it is (parsing it
 * only to encode it again was a fifth of the gateway's CPU on a user's lists), or what a service
 * joined from parts it holds encoded (docs/PERFORMANCE.md, "Search and lists"). `value()` parses
 * it when the gateway must look inside (`fields`, the response cache).
 */
export class ServiceJson<T = unknown> {
  private parsed?: { value: T };

  /** `bytes`: one JSON value, UTF-8. */
  constructor(readonly bytes: Buffer) {}

  /** `value` (not undefined, which has no JSON) as a ServiceJson. */
  static of<T>(value: T): ServiceJson<T> {
    const json = new ServiceJson<T>(Buffer.from(JSON.stringify(value)));
    json.parsed = { value };
    return json;
  }

  value(): T {
    this.parsed ??= { value: JSON.parse(this.bytes.toString('utf8')) as T };
    return this.parsed.value;
  }
}

/** What `ServiceBus.forward` answers: the service's JSON, or undefined when it answered nothing. */
export type Forwarded<T> = ServiceJson<T> | undefined;

const REPLY_HEAD = Buffer.from('{"response":');

/**
 * The reply packet of a Nest NATS server (`{response, isDisposed, id}`, in that order, as its
 * serializer writes it) when the answer is a ServiceJson: its bytes go in as they are, so an
 * answer the service assembled from JSON parts is not encoded again. Any other packet: undefined.
 */
export function replyPacketWithJson<P extends { response?: unknown }>(packet: P): Buffer | undefined {
  if (!(packet.response instanceof ServiceJson)) return undefined;
  const { response, ...rest } = packet;
  const tail = JSON.stringify(rest);
  return Buffer.concat([REPLY_HEAD, response.bytes, Buffer.from(tail.length > 2 ? `,${tail.slice(1)}` : '}')]);
}

/**
 * The bytes of `response` in a @nestjs/microservices NATS reply, which its serializer writes as
 * `{"response":<value>,"isDisposed":true,"id":"<the request's id>"}`; undefined for any other
 * shape (an error, an empty answer, a future change of that format), which the caller parses
 * instead. Copied: the reply is a view of the socket's read chunk.
 */
export function responseBytesOf(reply: Uint8Array, id: string): Buffer | undefined {
  const tail = `,"isDisposed":true,"id":"${id}"}`;
  const end = reply.length - tail.length;
  if (end <= REPLY_HEAD.length) return undefined;
  for (let i = 0; i < REPLY_HEAD.length; i++) if (reply[i] !== REPLY_HEAD[i]) return undefined;
  for (let i = 0; i < tail.length; i++) if (reply[end + i] !== tail.charCodeAt(i)) return undefined;
  return Buffer.from(reply.subarray(REPLY_HEAD.length, end));
}
