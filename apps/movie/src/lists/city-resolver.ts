import { Injectable } from '@nestjs/common';
import { RESOLVE_LOC, ResolvedLoc } from '@plaza/contracts';
import { ServiceBus } from '@plaza/platform';

/** The capital, which `in_theaters` shows when no city is asked for (docs/api/movie.md). */
export const DEFAULT_CITY: ResolvedLoc = { id: '108288', name: '北京', uid: 'beijing' };

/**
 * Cities belong to the event service: `city=` (a Chinese name, uid or id) is resolved there.
 * An unknown city is its 404/1001, which the caller gets as is.
 */
@Injectable()
export class CityResolver {
  constructor(private readonly bus: ServiceBus) {}

  async resolve(ref: string | undefined, requestId?: string): Promise<ResolvedLoc> {
    if (ref === undefined) return DEFAULT_CITY;
    const wanted = ref.trim();
    if (wanted === DEFAULT_CITY.id || wanted === DEFAULT_CITY.name || wanted.toLowerCase() === DEFAULT_CITY.uid) return DEFAULT_CITY;
    return this.bus.request(RESOLVE_LOC, { ref: wanted }, { requestId });
  }
}
