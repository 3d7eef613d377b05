import type { NatsUser } from '@plaza/stack';
import { connect, Events, NatsConnection, Status } from 'nats';
import { natsOptionsAs } from './stack-info';

/**
 * Connections to the shared stack's NATS as one of its users, for the permission suites: every
 * status event each gets is kept, since nats-server reports a refused publish or subscription
 * asynchronously (docs/DECISIONS.md, NATS permissions).
 */
export interface NatsAs {
  nc: NatsConnection;
  statuses: Status[];
}

const open: NatsConnection[] = [];

export async function connectAs(user: NatsUser, name: string): Promise<NatsAs> {
  const nc = await connect({ ...natsOptionsAs(user), name, maxReconnectAttempts: 0 });
  open.push(nc);
  const statuses: Status[] = [];
  void (async () => {
    for await (const s of nc.status()) statuses.push(s);
  })();
  return { nc, statuses };
}

/** Closes every connection `connectAs` opened (a suite's afterAll). */
export async function closeConnections(): Promise<void> {
  await Promise.all(open.splice(0).map((nc) => nc.close()));
}

/** Publishes `payload` and returns the violation the server reported for it (it arrives before the flush's PONG; the status iterator hands it over soon after). */
export async function publishRefusal(conn: NatsAs, subject: string, payload: Uint8Array): Promise<Status | undefined> {
  conn.nc.publish(subject, payload);
  await conn.nc.flush();
  const refusal = () => conn.statuses.find((s) => s.type === Events.Error && s.permissionContext?.subject === subject);
  for (let i = 0; i < 50 && !refusal(); i++) await new Promise((r) => setTimeout(r, 20));
  return refusal();
}
