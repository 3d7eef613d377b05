import { ApiError } from '@plaza/contracts';

export interface AdmissionLimits {
  /** Requests one instance holds at once, running or waiting for their turn. */
  maxConcurrent: number;
  /** Of those, how many handlers one caller may run at once (fair-turns.ts holds the rest). */
  maxPerCaller: number;
  /** How many more of one caller's requests may wait for a turn before the next is refused. */
  maxWaitingPerCaller: number;
}

/**
 * The refusal of a request over its caller's share of requests at once, in the services and in
 * the gateway alike: a client address (`addr:`) is limited as 112, a user or an app as 111 (the
 * API's two codes: docs/api/README.md, "Rate limits").
 */
export function tooManyAtOnce(caller: string): ApiError {
  return new ApiError(caller.startsWith('addr:') ? 'rate_limit_exceeded2' : 'rate_limit_exceeded1', 'too many requests at once');
}

/**
 * Load shedding in a service (docs/DECISIONS.md, "Limits"): a request over the instance's
 * capacity, or over its caller's share of it, is refused at once instead of waiting behind the
 * others until the gateway's timeout. One caller's flood then costs the others nothing but the
 * refusals; their requests keep their place.
 *
 * A caller's share is what it may run (`maxPerCaller`) plus a short queue (`maxWaitingPerCaller`,
 * sized to what one gateway lets a caller have in flight): a burst a gateway admitted waits its
 * turn here instead of coming back as refusals the gateway would pay for again and again.
 *
 * Counting requests held is all it takes: NATS hands this process the messages, and no queue
 * but the turns' holds them. (NATS itself has no per-subscriber concurrency limit for core
 * request/reply; a JetStream consumer's MaxAckPending would, at the price of a stream per
 * request subject.)
 */
export class Admission {
  private total = 0;
  private readonly byCaller = new Map<string, number>();

  constructor(private readonly limits: AdmissionLimits) {}

  /** Takes a place for the request and returns undefined, or returns the error to refuse it with. */
  admit(caller: string | undefined): ApiError | undefined {
    const held = caller ? (this.byCaller.get(caller) ?? 0) : 0;
    if (caller && held >= this.limits.maxPerCaller + this.limits.maxWaitingPerCaller) return tooManyAtOnce(caller);
    if (this.total >= this.limits.maxConcurrent) return new ApiError('service_unavailable', 'overloaded: try again shortly');
    if (caller) this.byCaller.set(caller, held + 1);
    this.total++;
    return undefined;
  }

  release(caller: string | undefined): void {
    this.total = Math.max(0, this.total - 1);
    if (!caller) return;
    const held = (this.byCaller.get(caller) ?? 1) - 1;
    if (held > 0) this.byCaller.set(caller, held);
    else this.byCaller.delete(caller);
  }

  get inFlight(): number {
    return this.total;
  }
}
