import proxyAddr from '@fastify/proxy-addr';
import type { IncomingMessage } from 'node:http';
import { parseBoolean } from '@plaza/platform';
import { ValidateBy, ValidationOptions } from 'class-validator';

/**
 * Which peers may speak for the client through X-Forwarded-For and X-Forwarded-Proto: none
 * (`false`), every one (`true`), or only these proxies — addresses, CIDR ranges and proxy-addr's
 * names `loopback`, `linklocal`, `uniquelocal`, comma-separated. With a list the client address is
 * the nearest one in X-Forwarded-For that is not a trusted proxy, so a client cannot choose it
 * even behind a proxy that appends to the header it sent.
 */
export type TrustProxy = boolean | string[];

/** The environment text as fastify's `trustProxy` option; anything unreadable stays text, for the validator to name. */
export function parseTrustProxy({ value }: { value: unknown }): unknown {
  const asBoolean = parseBoolean(value);
  if (asBoolean !== undefined || typeof value !== 'string') return asBoolean ?? value;
  const proxies = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (proxies.length === 0) return value;
  try {
    proxyAddr.compile(proxies); // throws on an address or range it cannot read
    return proxies;
  } catch {
    return value;
  }
}

export function IsTrustProxy(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isTrustProxy',
      validator: {
        validate: (value: unknown) => typeof value === 'boolean' || (Array.isArray(value) && value.length > 0),
        defaultMessage: () => '$property must be true, false, or a comma-separated list of proxy addresses, CIDR ranges, loopback, linklocal or uniquelocal',
      },
    },
    options,
  );
}

/**
 * The client's address of a raw request, as fastify's `request.ip` reads it with the same
 * `trustProxy`: the peer's, or the nearest address in X-Forwarded-For that is not a trusted proxy.
 * For the checks made before fastify sees a request (the in-flight limit).
 */
export function clientAddressOf(trust: TrustProxy): (req: IncomingMessage) => string {
  if (trust === false) return (req) => req.socket.remoteAddress ?? '';
  const trusted = trust === true ? () => true : proxyAddr.compile(trust);
  return (req) => {
    const addresses = proxyAddr.all(req, trusted);
    return addresses[addresses.length - 1] ?? '';
  };
}
