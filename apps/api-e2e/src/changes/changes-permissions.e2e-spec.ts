import type { NatsUser } from '@plaza/stack';
import { closeConnections, connectAs, NatsAs, publishRefusal } from '../support/nats-as';

/**
 * Who may write the change feed (docs/api/changes.md, "How it is kept"): each service only its own
 * kinds' subjects, the gateway and the importer none, and nobody but the services may create the
 * stream; the gateway may not purge or delete it. nats-server refuses the rest.
 */

afterAll(closeConnections);

const as = (user: NatsUser) => connectAs(user, `e2e-changes-as-${user}`);
const refused = (conn: NatsAs, subject: string) => publishRefusal(conn, subject, new TextEncoder().encode('{}'));

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
    expect(await refused(await as(user), subject)).toMatchObject({ permissionContext: { operation: 'publish', subject } });
  });
});
