import type { NatsConnection } from 'nats';

/**
 * Publishes made during one turn of the event loop leave in one socket write.
 *
 * nats.js coalesces only what is published within one microtask run; under load the gateway and
 * the services handle many requests per loop turn, each publishing from its own callback, and every
 * publish became its own write syscall (a quarter of the gateway's CPU on the NATS path). Queued
 * here and published together from one `setImmediate`, they share a write, still within the same
 * loop turn. One queue per connection keeps publishes in order (a write's cache invalidation
 * still leaves before its reply).
 */
export class PublishBatch {
  private queue: Array<() => void> = [];

  add(publish: () => void): void {
    if (this.queue.push(publish) === 1) setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    const queued = this.queue;
    this.queue = [];
    for (const publish of queued) {
      // one publish the connection refuses (it is closed) must not cost the others, nor throw
      // out of setImmediate and end the process; callers that can answer for it catch it first
      try {
        publish();
      } catch (err) {
        process.emitWarning(err as Error);
      }
    }
  };
}

const batches = new WeakMap<NatsConnection, PublishBatch>();

export function publishBatchFor(nc: NatsConnection): PublishBatch {
  let batch = batches.get(nc);
  if (!batch) {
    batch = new PublishBatch();
    batches.set(nc, batch);
  }
  return batch;
}
