import { ApiError, Caller } from '@plaza/contracts';
import { Metrics, tooManyAtOnce } from '@plaza/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AccessPolicy } from '../access/access-policy';
import { TokenVerifier } from '../auth/token-verifier';
import { endpointFor } from '../endpoints/route-patterns';
import { sendApiError } from '../http/error-body';
import { shareOf } from '../http/request-context';
import { requestIdOf } from '../http/request-id';
import { limitHeaders, RateLimitPolicy } from './rate-limit.policy';

export interface InFlightDependencies {
  policy: AccessPolicy;
  tokens: TokenVerifier;
  rateLimits: RateLimitPolicy;
}

/** A request this limit refused, left for fastify to answer (JSONP, OAuth's error fields). */
const REFUSED = Symbol('plaza.inFlightRefused');
/** Where an admitted request is counted, until it closes: the share it was admitted under, or the one it moved to. */
const COUNTED = Symbol('plaza.inFlightCounted');
interface Counted {
  limit: InFlightLimit;
  key: string;
}
type Marked = IncomingMessage & { [REFUSED]?: ApiError; [COUNTED]?: Counted };

/**
 * Moves an admitted request's count to `share` once the access guard knows who sent it: a token
 * the gateway had not verified before was counted by the client address (docs/DECISIONS.md,
 * "Limits"). False, and nothing moved, when that share is full: the request is then refused
 * (`tooManyAtOnce`), as it would have been on arrival had the token been known.
 */
export function moveInFlightShare(req: IncomingMessage, share: string): boolean {
  const counted = (req as Marked)[COUNTED];
  return counted === undefined || counted.limit.move(counted, share);
}

const JSON_TYPE = 'application/json; charset=utf-8';
const SHARE_SPENT = new ApiError('rate_limit_exceeded1', 'fair share of the minute spent');

/**
 * At most `limit` requests of one caller in this gateway at once (docs/DECISIONS.md, "Limits").
 * Counted and refused on Node's `request` event, before fastify builds a request and a reply: a
 * flood on hundreds of connections then costs the gateway a map lookup and a short answer per
 * request, and the requests of others queued behind it wait that much less. The caller is known
 * this early from a token verified before; a request with a new token counts by address until the
 * access guard has verified it and moves it to its caller's share (`moveInFlightShare`).
 * A caller whose fair share of the minute is spent is refused here too (429/111 with the
 * RateLimit headers, as the guard would), on every endpoint the share counts.
 *
 * The refusal is written here with the headers fastify would set (security, request id, CORS),
 * unless the answer needs what only fastify's hooks add: a JSONP `callback`, the OAuth error
 * fields of `/auth2/*`, per-origin CORS headers, or a gateway draining. Those requests are marked
 * and refused by `registerInFlightRefusals` on onRequest instead (a spent share: by the guard).
 */
export class InFlightLimit {
  private readonly held = new Map<string, number>();
  private deps?: InFlightDependencies;
  private open = true;

  /**
   * @param clientAddress the client's address as fastify's `request.ip` reads it (trust-proxy.ts)
   * @param headersBeforeId security headers, as fastify's first onRequest hook sets them
   * @param headersAfterId the CORS headers every answer carries; without them every refusal goes to fastify
   */
  constructor(
    private readonly limit: number,
    private readonly clientAddress: (req: IncomingMessage) => string,
    private readonly headersBeforeId: Record<string, string>,
    private readonly headersAfterId: Record<string, string> | undefined,
  ) {}

  /** Starts counting, once the gateway's token verifier exists. */
  enable(deps: InFlightDependencies): void {
    this.deps = deps;
  }

  /** While the gateway drains, refusals go through fastify (its answers then close their connection). */
  close(): void {
    this.open = false;
  }

  /** Counts the request, or refuses it: true when the refusal was written here. */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    const deps = this.deps;
    if (!deps) return false;
    const token = deps.policy.hasBearer(req) ? deps.policy.bearerToken(req) : undefined;
    const caller = token ? deps.tokens.cachedPrincipal(token)?.caller : undefined;
    if (caller && this.refusedForSpentShare(req, res, caller, deps)) return true;
    const key = shareOf(caller, this.clientAddress(req));
    const n = this.held.get(key) ?? 0;
    if (n >= this.limit) {
      Metrics.rateLimitRefused('in-flight');
      const error = tooManyAtOnce(key);
      if (this.writable(req)) {
        this.refuse(req, res, error);
        return true;
      }
      (req as Marked)[REFUSED] = error;
      return false;
    }
    this.held.set(key, n + 1);
    const counted: Counted = { limit: this, key };
    (req as Marked)[COUNTED] = counted;
    // 'close' comes once the answer is sent or the client went away, whichever ends the request
    res.once('close', () => this.release(counted.key));
    return false;
  }

  /** See `moveInFlightShare`. */
  move(counted: Counted, share: string): boolean {
    if (counted.key === share) return true;
    const n = this.held.get(share) ?? 0;
    if (n >= this.limit) {
      Metrics.rateLimitRefused('in-flight');
      return false;
    }
    this.release(counted.key);
    this.held.set(share, n + 1);
    counted.key = share;
    return true;
  }

  /**
   * Refuses a caller whose fair share is spent, on the endpoints the guard counts it for (every
   * one but `unlimited`); any other request, or one it cannot place, goes on to the guard.
   */
  private refusedForSpentShare(req: IncomingMessage, res: ServerResponse, caller: Caller, deps: InFlightDependencies): boolean {
    const spent = deps.rateLimits.spentFairShare(caller);
    if (!spent || !this.writable(req)) return false;
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const endpoint = endpointFor(req.method ?? 'GET', query === -1 ? url : url.slice(0, query));
    if (!endpoint || endpoint.unlimited) return false;
    Metrics.rateLimitRefused(spent.bucket);
    this.refuse(req, res, SHARE_SPENT, limitHeaders(spent.state, true));
    return true;
  }

  private release(key: string): void {
    const n = (this.held.get(key) ?? 1) - 1;
    if (n > 0) this.held.set(key, n);
    else this.held.delete(key);
  }

  private writable(req: IncomingMessage): boolean {
    const url = req.url ?? '/';
    return this.open && this.headersAfterId !== undefined && !url.startsWith('/auth2/') && !url.includes('callback=');
  }

  /** The API's error body, with the headers of any other answer (docs/api/README.md, "Errors"). */
  private refuse(req: IncomingMessage, res: ServerResponse, error: ApiError, limitHeaders: Record<string, string> = {}): void {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const body = JSON.stringify({ msg: error.msg, code: error.code, request: `${req.method} ${query === -1 ? url : url.slice(0, query)}` });
    res.writeHead(error.status, {
      ...this.headersBeforeId,
      'x-request-id': requestIdOf(req.headers),
      ...this.headersAfterId,
      ...limitHeaders,
      'content-type': JSON_TYPE,
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  }
}

/** Answers, in fastify, the refusals the limit left to it (see InFlightLimit). */
export function registerInFlightRefusals(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const refused = (request.raw as Marked)[REFUSED];
    if (refused) {
      sendApiError(request, reply, refused);
      return;
    }
    done();
  });
}
