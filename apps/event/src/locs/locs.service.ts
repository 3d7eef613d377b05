import { Injectable } from '@nestjs/common';
import { ApiError, envelope, LocList, LocView, PageRequest, ResolvedLoc } from '@plaza/contracts';
import { LocsRepository, StoredLoc } from './locs.repository';

export function toLocView(loc: StoredLoc): LocView {
  return { id: loc._id, name: loc.name, uid: loc.uid, parent: loc.parent ?? '', habitable: loc.habitable ? 'yes' : 'no' };
}

/** Cities and regions: read by id, listed by id, resolved by id, uid or name (for the movie area). */
@Injectable()
export class LocsService {
  constructor(private readonly locs: LocsRepository) {}

  async get(id: string): Promise<LocView> {
    const loc = await this.locs.byId(id);
    if (!loc) throw new ApiError('uri_not_found', `no city ${id}`);
    return toLocView(loc);
  }

  async list(page: PageRequest): Promise<LocList> {
    const { total, items } = await this.locs.page(page.start, page.count);
    return envelope('locs', page.start, total, items.map(toLocView));
  }

  async resolve(ref: string): Promise<ResolvedLoc> {
    const loc = await this.locs.byRef(ref);
    if (!loc) throw new ApiError('uri_not_found', `no city ${ref}`);
    return { id: loc._id, name: loc.name, uid: loc.uid };
  }
}
