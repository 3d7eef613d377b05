/**
 * Where replies and JetStream deliveries to a process arrive: an inbox prefix of its NATS user's
 * own, so NATS can let each user subscribe to its own replies only (nats.js's default `_INBOX`
 * would be one prefix for everyone, and any user could read the replies meant for another).
 * The apps connect with it (libs/platform's connectNats); the server's permissions grant it
 * (tools/stack/src/nats-auth.ts).
 */
export const natsInboxPrefix = (user: string): string => `_INBOX_${user}`;
