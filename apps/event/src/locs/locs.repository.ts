import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { KeyedMutex } from '@plaza/platform';
import { Model } from 'mongoose';
import { LocDocument, LocRefDocument } from './loc.schema';

export type StoredLoc = LocDocument;

const uidKey = (uid: string) => `uid:${uid.toLowerCase()}`;
const nameKey = (name: string) => `name:${name}`;

/** The locs collection and its uid/name index. */
@Injectable()
export class LocsRepository {
  /** Serialises imports of one loc or one uid (refs are read, compared and rewritten). */
  private readonly lock = new KeyedMutex();
  /** Recently read locs: every event shown needs its city's name, and cities change only by import. */
  private readonly recent = new Map<string, { loc: StoredLoc | null; expires: number }>();

  constructor(
    @InjectModel(LocDocument.name) private readonly locs: Model<LocDocument>,
    @InjectModel(LocRefDocument.name) private readonly refs: Model<LocRefDocument>,
  ) {}

  async byId(id: string): Promise<StoredLoc | null> {
    return this.locs.findById(id).lean<StoredLoc>().exec();
  }

  /**
   * `byId` through a 30-second cache (real time, not the service clock: it measures staleness).
   * Another instance's import shows here within that time; this instance's own at once.
   */
  async byIdCached(id: string): Promise<StoredLoc | null> {
    const hit = this.recent.get(id);
    if (hit && hit.expires > Date.now()) return hit.loc;
    const loc = await this.byId(id);
    if (this.recent.size >= 10_000) this.recent.clear();
    this.recent.set(id, { loc, expires: Date.now() + 30_000 });
    return loc;
  }

  /** A loc by numeric id, uid (any case) or exact name. */
  async byRef(ref: string): Promise<StoredLoc | null> {
    const text = ref.trim();
    if (text === '') return null;
    if (/^\d+$/.test(text)) {
      const loc = await this.byId(text);
      if (loc) return loc;
    }
    for (const key of [uidKey(text), nameKey(text)]) {
      const hit = await this.refs.findById(key).lean<LocRefDocument>().exec();
      const loc = hit && (await this.byId(hit.loc_id));
      // a ref left behind by a renamed loc must not resolve to it
      if (loc && (uidKey(loc.uid) === key || nameKey(loc.name) === key)) return loc;
    }
    return null;
  }

  async page(start: number, count: number): Promise<{ total: number; items: StoredLoc[] }> {
    const [total, items] = await Promise.all([
      this.locs.countDocuments().exec(),
      count === 0 ? Promise.resolve([]) : this.locs.find().sort({ order: 1 }).skip(start).limit(count).lean<StoredLoc[]>().exec(),
    ]);
    return { total, items };
  }

  /** Inserts or replaces a loc (import). A uid another loc holds is refused; a name may repeat (first one wins). */
  async upsert(loc: StoredLoc): Promise<void> {
    await this.lock.runAll([loc._id, uidKey(loc.uid)], async () => {
      const owner = await this.refs.findById(uidKey(loc.uid)).lean<LocRefDocument>().exec();
      if (owner && owner.loc_id !== loc._id) {
        const other = await this.byId(owner.loc_id);
        if (other && uidKey(other.uid) === uidKey(loc.uid)) throw new Error(`uid ${loc.uid} belongs to loc ${other._id}`);
      }
      const previous = await this.byId(loc._id);
      await this.refs.replaceOne({ _id: uidKey(loc.uid) }, { _id: uidKey(loc.uid), loc_id: loc._id }, { upsert: true }).exec();
      const named = await this.refs.findById(nameKey(loc.name)).lean<LocRefDocument>().exec();
      const namedLoc = named && named.loc_id !== loc._id ? await this.byId(named.loc_id) : null;
      if (!namedLoc || namedLoc.name !== loc.name) {
        await this.refs.replaceOne({ _id: nameKey(loc.name) }, { _id: nameKey(loc.name), loc_id: loc._id }, { upsert: true }).exec();
      }
      await this.locs.replaceOne({ _id: loc._id }, loc, { upsert: true }).exec();
      this.recent.delete(loc._id);
      if (previous && uidKey(previous.uid) !== uidKey(loc.uid)) await this.refs.deleteOne({ _id: uidKey(previous.uid), loc_id: loc._id }).exec();
      if (previous && previous.name !== loc.name) await this.refs.deleteOne({ _id: nameKey(previous.name), loc_id: loc._id }).exec();
    });
  }
}
