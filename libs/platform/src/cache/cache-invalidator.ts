import { CACHE_INVALIDATED } from '@plaza/contracts';
import { ServiceBus } from '../nats/service-bus';

/**
 * Tells every gateway replica to drop cached responses. Call it after a write is stored and
 * before replying: it leaves on the same connection as the reply, so it arrives first.
 */
export class CacheInvalidator {
  constructor(private readonly bus: ServiceBus) {}

  tags(...tags: string[]): void {
    if (tags.length > 0) this.bus.publish(CACHE_INVALIDATED, { tags });
  }

  areas(...areas: string[]): void {
    if (areas.length > 0) this.bus.publish(CACHE_INVALIDATED, { areas });
  }
}
