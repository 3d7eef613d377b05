/**
 * A request/reply message: the NATS subject and the request class live together, so the
 * gateway and the service can never disagree on a subject name or a payload shape.
 *
 * Subjects follow `<service>.v<major>.<resource>.<action>`. A breaking payload change gets a new
 * major (both versions are served during a rollout); additive changes keep the subject. See
 * docs/ARCHITECTURE.md, "Message contracts" (its "Versioning rule for rolling updates").
 */
export interface MessageDefinition<Req extends object, Res> {
  readonly subject: string;
  readonly request: new () => Req;
  /** Phantom field carrying the response type; never set at runtime. */
  readonly responseType?: Res;
}

export function defineMessage<Req extends object, Res>(
  subject: string,
  request: new () => Req,
): MessageDefinition<Req, Res> {
  return { subject, request };
}

export type RequestOf<M> = M extends MessageDefinition<infer Req, unknown> ? Req : never;
export type ResponseOf<M> = M extends MessageDefinition<object, infer Res> ? Res : never;

/** A broadcast event: every subscriber receives it (no queue group), no reply. */
export interface EventDefinition<Payload extends object> {
  readonly subject: string;
  readonly payload: new () => Payload;
}

export function defineEvent<Payload extends object>(
  subject: string,
  payload: new () => Payload,
): EventDefinition<Payload> {
  return { subject, payload };
}

/** Queue group names: one per service, so several instances share the work and each message is handled once. */
export const ServiceNames = ['identity', 'book', 'movie', 'note', 'event'] as const;
export type ServiceName = (typeof ServiceNames)[number];
