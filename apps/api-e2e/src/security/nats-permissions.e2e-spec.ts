import { ApiError, IdentityMessages, importBatchMessage, pingMessage, REVOCATION_BUCKET } from '@plaza/contracts';
import { ServiceBus } from '@plaza/platform';
import { NATS_USERS, NatsUser } from '@plaza/stack';
import { connect, ErrorCode, Events, NatsConnection, NatsError, StorageType } from 'nats';
import { closeConnections, connectAs, NatsAs, publishRefusal } from '../support/nats-as';
import { stackInfo } from '../support/stack-info';
import { SecUsers } from './security-support';

/**
 * NATS authentication and permissions (docs/DECISIONS.md, "NATS") on the shared stack, whose apps all run with
 * them: a connection without credentials, or with another process's, cannot use a subject
 * outside that process's permissions (tools/stack/src/nats-auth.ts). nats.js reports a refused
 * request as a rejected request, and a refused publish or subscription asynchronously (a status
 * event, the subscription's callback), both with code PERMISSIONS_VIOLATION and the subject; the
 * connection stays open.
 */

const encoder = new TextEncoder();
afterAll(closeConnections);

/** A connection as `user`, with every status event it gets. */
const as = (user: NatsUser) => connectAs(user, `e2e-as-${user}`);

/** A Nest request packet, as the apps' ServiceBus sends it. */
const packet = (subject: string, data: object = {}) => encoder.encode(JSON.stringify({ pattern: subject, data, id: 'e2e' }));

/** What a request refused by the server rejects with. */
const refusedPublish = (subject: string) => ({ code: ErrorCode.PermissionsViolation, permissionContext: expect.objectContaining({ operation: 'publish', subject }) });

/** Publishes a Nest packet and returns the violation the server reported for it. */
const publishRefusalOf = (conn: NatsAs, subject: string) => publishRefusal(conn, subject, packet(subject));

/** Subscribes and returns the error the subscription got, or undefined if the server took it. */
async function subscription(nc: NatsConnection, subject: string, queue?: string): Promise<NatsError | undefined> {
  let refused: NatsError | undefined;
  const sub = nc.subscribe(subject, { queue, callback: (err) => (refused ??= err ?? undefined) });
  // the server answers the SUB before the flush's PING
  await nc.flush();
  if (!refused) sub.unsubscribe();
  return refused;
}

describe('NATS without credentials, or with wrong ones', () => {
  it('refuses the connection (Authorization Violation)', async () => {
    await expect(connect({ servers: stackInfo().natsServerUrl, maxReconnectAttempts: 0 })).rejects.toMatchObject({ code: ErrorCode.AuthorizationViolation });
    await expect(connect({ servers: stackInfo().natsServerUrl, user: 'book', pass: 'nwrongpassword', maxReconnectAttempts: 0 })).rejects.toMatchObject({
      code: ErrorCode.AuthorizationViolation,
    });
    // another user's password is no password of this one
    await expect(connect({ servers: stackInfo().natsServerUrl, user: 'identity', pass: stackInfo().natsUsers.importer.password, maxReconnectAttempts: 0 })).rejects.toMatchObject({
      code: ErrorCode.AuthorizationViolation,
    });
  });
});

describe('NATS as the importer', () => {
  it('cannot ask for a token: the request is refused, and the connection stays open', async () => {
    const importer = await as('importer');
    await expect(importer.nc.request(IdentityMessages.issueToken.subject, packet(IdentityMessages.issueToken.subject), { timeout: 5000 })).rejects.toMatchObject(
      refusedPublish('identity.v1.token.issue'),
    );
    expect(importer.nc.isClosed()).toBe(false);
  });

  it('cannot publish to an API subject (book.v1.book.get)', async () => {
    const importer = await as('importer');
    expect(await publishRefusalOf(importer, 'book.v1.book.get')).toMatchObject({
      type: Events.Error,
      data: ErrorCode.PermissionsViolation,
      permissionContext: { operation: 'publish', subject: 'book.v1.book.get' },
    });
  });

  it('cannot serve identity\'s subjects', async () => {
    const importer = await as('importer');
    expect(await subscription(importer.nc, 'identity.v1.>')).toMatchObject({ code: ErrorCode.PermissionsViolation, permissionContext: { operation: 'subscription', subject: 'identity.v1.>' } });
  });

  it('may ping the services it loads into and send them imports', async () => {
    const importer = await as('importer');
    const bus = new ServiceBus(importer.nc, 5000);
    await expect(bus.request(pingMessage('book'), {})).resolves.toMatchObject({ service: 'book', ready: true });
    // an empty batch to identity, whose imports invalidate no cache the other suites read
    await expect(bus.request(importBatchMessage('identity'), { lines: [] })).resolves.toEqual({ results: [] });
    expect(importer.statuses.filter((s) => s.type === Events.Error)).toEqual([]);
  });
});

describe('NATS as the gateway', () => {
  it('cannot publish to an import subject', async () => {
    const gateway = await as('gateway');
    const subject = importBatchMessage('book').subject;
    await expect(gateway.nc.request(subject, packet(subject, { lines: [] }), { timeout: 5000 })).rejects.toMatchObject(refusedPublish('book.v1.import.batch'));
    expect(await publishRefusalOf(gateway, importBatchMessage('identity').subject)).toMatchObject({ permissionContext: { operation: 'publish', subject: 'identity.v1.import.batch' } });
  });

  it('cannot subscribe to identity\'s subjects, so it cannot answer in identity\'s place', async () => {
    const gateway = await as('gateway');
    expect(await subscription(gateway.nc, 'identity.v1.>')).toMatchObject({ code: ErrorCode.PermissionsViolation, permissionContext: { operation: 'subscription', subject: 'identity.v1.>' } });
    expect(await subscription(gateway.nc, 'identity.v1.token.issue', 'identity')).toMatchObject({
      code: ErrorCode.PermissionsViolation,
      permissionContext: { operation: 'subscription', subject: 'identity.v1.token.issue', queue: 'identity' },
    });
  });

  it('reads the revocation bucket but cannot write it', async () => {
    const gateway = await as('gateway');
    const kv = await gateway.nc.jetstream().views.kv(REVOCATION_BUCKET, { history: 1, storage: StorageType.File });
    await expect(kv.put('jti.e2e-forged', encoder.encode('1'))).rejects.toMatchObject(refusedPublish('$KV.revocations.jti.e2e-forged'));
    await expect(kv.delete('user.1001')).rejects.toMatchObject(refusedPublish('$KV.revocations.user.1001'));
    // nor reconfigure, purge or delete it
    const jsm = await gateway.nc.jetstreamManager();
    await expect(jsm.streams.purge(`KV_${REVOCATION_BUCKET}`)).rejects.toMatchObject(refusedPublish('$JS.API.STREAM.PURGE.KV_revocations'));
    await expect(jsm.streams.delete(`KV_${REVOCATION_BUCKET}`)).rejects.toMatchObject(refusedPublish('$JS.API.STREAM.DELETE.KV_revocations'));
    // watching works (as the gateways' revocation list does: the watch replays the bucket, then says it is in sync)
    let synced = false;
    const watch = await kv.watch({ initializedFn: () => (synced = true) });
    const consumed = (async () => {
      for await (const _entry of watch) if (synced) break;
    })();
    for (let i = 0; i < 50 && !synced; i++) await new Promise((r) => setTimeout(r, 100));
    watch.stop();
    await consumed;
    expect(synced).toBe(true);
  });

  it('cannot make a stream that would capture another service\'s requests', async () => {
    const gateway = await as('gateway');
    const jsm = await gateway.nc.jetstreamManager();
    await expect(jsm.streams.add({ name: 'e2e_capture', subjects: ['identity.v1.token.issue'] })).rejects.toMatchObject(refusedPublish('$JS.API.STREAM.CREATE.e2e_capture'));
  });

  it('may ask every area, identity included, as the API does', async () => {
    const gateway = await as('gateway');
    const bus = new ServiceBus(gateway.nc, 5000);
    for (const service of ['identity', 'book', 'movie', 'note', 'event']) await expect(bus.request(pingMessage(service), {})).resolves.toMatchObject({ service });
    // identity answers the gateway's token request (here: an unknown client, refused with the API's error)
    const refused = await bus.request(IdentityMessages.issueToken, { grant_type: 'client_credentials', client_id: 'e2e-nobody', client_secret: 'x' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBeLessThan(500);
    expect(gateway.statuses.filter((s) => s.type === Events.Error)).toEqual([]);
  });
});

describe('NATS as a service (book)', () => {
  it('reads replies in its own inbox only: the gateway\'s, identity\'s and the shared default are refused', async () => {
    const book = await as('book');
    for (const inbox of ['_INBOX_gateway.>', '_INBOX_identity.>', '_INBOX.>', '>']) {
      expect(await subscription(book.nc, inbox)).toMatchObject({ code: ErrorCode.PermissionsViolation, permissionContext: { operation: 'subscription', subject: inbox } });
    }
    expect(await subscription(book.nc, '_INBOX_book.>')).toBeUndefined();
  });

  it('cannot subscribe to identity\'s subjects', async () => {
    const book = await as('book');
    expect(await subscription(book.nc, 'identity.v1.>')).toMatchObject({ code: ErrorCode.PermissionsViolation, permissionContext: { operation: 'subscription', subject: 'identity.v1.>' } });
  });

  it('cannot ask for a token, nor call another area\'s API', async () => {
    const book = await as('book');
    await expect(book.nc.request('identity.v1.token.issue', packet('identity.v1.token.issue'), { timeout: 5000 })).rejects.toMatchObject(refusedPublish('identity.v1.token.issue'));
    await expect(book.nc.request('note.v1.note.get', packet('note.v1.note.get'), { timeout: 5000 })).rejects.toMatchObject(refusedPublish('note.v1.note.get'));
  });

  it('cannot write the revocation or the rate-limit bucket', async () => {
    const book = await as('book');
    await expect(book.nc.request('$KV.revocations.jti.e2e-forged', encoder.encode('1'), { timeout: 5000 })).rejects.toMatchObject(refusedPublish('$KV.revocations.jti.e2e-forged'));
    await expect(book.nc.request('$KV.ratelimits.e2e', encoder.encode('0'), { timeout: 5000 })).rejects.toMatchObject(refusedPublish('$KV.ratelimits.e2e'));
  });

  it('may resolve users through identity, and serve (and answer on) its own subjects', async () => {
    const book = await as('book');
    const bus = new ServiceBus(book.nc, 5000);
    const { users } = await bus.request(IdentityMessages.resolveUsers, { refs: [SecUsers.owner.id] });
    expect(users[SecUsers.owner.id]).toMatchObject({ id: SecUsers.owner.id, uid: SecUsers.owner.uid });
    // a subject of book's own that nobody else serves: the gateway asks, this connection answers
    const probe = 'book.v1.e2e.permissions-probe';
    const sub = book.nc.subscribe(probe, { callback: (_err, msg) => msg.respond(encoder.encode(JSON.stringify({ response: { from: 'book' }, isDisposed: true }))) });
    const gateway = await as('gateway');
    const answer = await gateway.nc.request(probe, packet(probe), { timeout: 5000 });
    expect(JSON.parse(new TextDecoder().decode(answer.data))).toEqual({ response: { from: 'book' }, isDisposed: true });
    sub.unsubscribe();
    expect(book.statuses.filter((s) => s.type === Events.Error)).toEqual([]);
  });
});

describe('NATS as identity', () => {
  it('writes the revocation bucket', async () => {
    const identity = await as('identity');
    const kv = await identity.nc.jetstream().views.kv(REVOCATION_BUCKET, { history: 1, storage: StorageType.File });
    // a kind the gateways ignore
    await kv.put('e2e.permissions-probe', encoder.encode('1'));
    await kv.delete('e2e.permissions-probe');
    expect(identity.statuses.filter((s) => s.type === Events.Error)).toEqual([]);
  });
});

describe('identity alone serves identity\'s subjects', () => {
  it.each(NATS_USERS.filter((u) => u !== 'identity'))('%s cannot join identity\'s queue group', async (user) => {
    const conn = await as(user);
    expect(await subscription(conn.nc, IdentityMessages.issueToken.subject, 'identity')).toMatchObject({ code: ErrorCode.PermissionsViolation });
  });
});
