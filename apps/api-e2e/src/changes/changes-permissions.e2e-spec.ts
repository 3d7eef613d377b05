import type { NatsUser } from '@plaza/stack';
import { connect, Events, NatsConnection, Status } from 'nats';
import { natsOptionsAs } from '../support/stack-info';

/**
 * Who may write the change feed (docs/api/changes.md, "How it is kept"): each service only its own
 * kinds' subjects, the gateway and the importer none, and nobody but the services may create the
 * stream; the gateway may not purge or delete it. nats-server refuses the rest.
 */

const open: NatsConnection[] = [];

async function as(user: NatsUser): Promise<{ nc: NatsConnection; statuses: Status[] }> {
  const nc = await connect({ ...natsOptionsAs(user), name: `e2e-changes-as-${user}`, maxReconnectAttempts: 0 });
  open.push(nc);
  const statuses: Status[] = [];
  void (async () => {
    for await (const s of nc.status()) statuses.push(s);
  })();
  return { nc, statuses };
}

afterAll(async () => {
  await Promise.all(open.map((nc) => nc.close()));
});

/** Publishes and returns the violation the server reported for it, if any. */
async function publishRefusal(conn: { nc: NatsConnection; statuses: Status[] }, subject: string): Promise<Status | undefined> {
  conn.nc.publish(subject, new TextEncoder().encode('{}'));
  await conn.nc.flush();
  const refusal = () => conn.statuses.find((s) => s.type === Events.Error && s.permissionContext?.subject === subject);
  for (let i = 0; i < 50 && !refusal(); i++) await new Promise((r) => setTimeout(r, 20));
  return refusal();
}

describe('NATS permissions of the change feed', () => {
  it.each([
    ['gateway', 'changes.v1.book'],
    ['gateway', '$JS.API.STREAM.PURGE.CHANGES'],
    ['gateway', '$JS.API.STREAM.DELETE.CHANGES'],
    ['gateway', '$JS.API.STREAM.CREATE.CHANGES'],
    ['importer', 'changes.v1.city'],
    ['movie', 'changes.v1.book'],
    ['event', 'changes.v1.movie'],
    ['book', 'changes.v1.event'],
    ['identity', 'changes.v1.series'],
  ] as Array<[NatsUser, string]>)('%s may not publish %s', async (user, subject) => {
    expect(await publishRefusal(await as(user), subject)).toMatchObject({ permissionContext: { operation: 'publish', subject } });
  });
});
