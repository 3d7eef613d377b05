import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { DatabaseEngine, LocalKeyedModel, LocalReadModel } from '@plaza/service-kit';
import { Model } from 'mongoose';
import type { EventUserLink } from '../participation/event-user-links';
import { ParticipantDocument, WisherDocument } from '../participation/participation.schemas';
import { EventDocument } from './event.schema';

/** A link as the lists use it: which event, which user, when (the chosen day is shown nowhere). */
export type HeldLink = Pick<EventUserLink, '_id' | 'event_id' | 'user_id' | 'created'>;

export type LinkKind = 'participants' | 'wishers';

const byIdAscending = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** `{created: -1, _id: 1}`: the order of the link queries on MongoDB, the latest first. */
export function latestLinkFirst(a: HeldLink, b: HeldLink): number {
  return b.created.getTime() - a.created.getTime() || byIdAscending(a._id, b._id);
}

const timeOf = (d: Date | string) => (d instanceof Date ? d.getTime() : new Date(d).getTime());

/** `{begin: -1, _id: -1}`: the order of a user's lists, latest beginning first. */
export function latestBeginningFirst(a: Pick<EventDocument, '_id' | 'begin'>, b: Pick<EventDocument, '_id' | 'begin'>): number {
  return timeOf(b.begin) - timeOf(a.begin) || byIdAscending(b._id, a._id);
}

/** The links of one event or of one user, sorted again only on the first read after a change. */
class LinkGroup {
  readonly links = new Map<string, HeldLink>();
  private ordered?: readonly HeldLink[];

  set(link: HeldLink): void {
    this.links.set(link._id, link);
    this.ordered = undefined;
  }

  delete(id: string): void {
    this.links.delete(id);
    this.ordered = undefined;
  }

  inOrder(): readonly HeldLink[] {
    return (this.ordered ??= [...this.links.values()].sort(latestLinkFirst));
  }
}

const NO_LINKS: readonly HeldLink[] = [];

/**
 * The documents of a link collection (participants or wishers), grouped by event and by user: an
 * event's page and a user's list cost their own links, where FerretDB scans the whole collection
 * (docs/ENGINES.md, point 2). Loading and upkeep: see LocalReadModel.
 */
export class HeldLinks extends LocalReadModel<EventUserLink> {
  private readonly byId = new Map<string, HeldLink>();
  private readonly byEvent = new Map<string, LinkGroup>();
  private readonly byUser = new Map<string, LinkGroup>();

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** An event's links, the latest first (the array is shared: not to be changed). */
  ofEvent(eventId: string): readonly HeldLink[] {
    return this.byEvent.get(eventId)?.inOrder() ?? NO_LINKS;
  }

  /** A user's links, the latest first (shared, as `ofEvent`). */
  ofUser(userId: string): readonly HeldLink[] {
    return this.byUser.get(userId)?.inOrder() ?? NO_LINKS;
  }

  protected store(doc: EventUserLink): void {
    this.drop(doc._id);
    const link: HeldLink = { _id: doc._id, event_id: doc.event_id, user_id: doc.user_id, created: new Date(doc.created) };
    this.byId.set(link._id, link);
    groupOf(this.byEvent, link.event_id).set(link);
    groupOf(this.byUser, link.user_id).set(link);
  }

  protected drop(id: string): void {
    const link = this.byId.get(id);
    if (!link) return;
    this.byId.delete(id);
    leave(this.byEvent, link.event_id, id);
    leave(this.byUser, link.user_id, id);
  }
}

function groupOf(groups: Map<string, LinkGroup>, key: string): LinkGroup {
  let group = groups.get(key);
  if (!group) groups.set(key, (group = new LinkGroup()));
  return group;
}

function leave(groups: Map<string, LinkGroup>, key: string, id: string): void {
  const group = groups.get(key);
  group?.delete(id);
  if (group?.links.size === 0) groups.delete(key);
}

/** Every event as stored (what a list shows, sorts and filters on), by `_id` and by owner. */
export class HeldEvents extends LocalKeyedModel<EventDocument, EventDocument> {
  private readonly byOwner = new Map<string, Set<string>>();

  constructor() {
    super((doc) => doc);
  }

  /** The owner's events, in no particular order (a new array). */
  ownedBy(ownerId: string): EventDocument[] {
    return [...(this.byOwner.get(ownerId) ?? [])].map((id) => this.get(id)).filter((e): e is EventDocument => e !== undefined);
  }

  protected override store(doc: EventDocument): void {
    this.drop(doc._id);
    super.store(doc);
    let owned = this.byOwner.get(doc.owner_id);
    if (!owned) this.byOwner.set(doc.owner_id, (owned = new Set()));
    owned.add(doc._id);
  }

  protected override drop(id: string): void {
    const held = this.get(id);
    if (held) {
      const owned = this.byOwner.get(held.owner_id);
      owned?.delete(id);
      if (owned?.size === 0) this.byOwner.delete(held.owner_id);
    }
    super.drop(id);
  }
}

/**
 * What the event service does differently on the local engine (docs/ENGINES.md lists each
 * difference with its tests): FerretDB v1 answers any filter other than `_id` by decoding every
 * document of a collection, so an event's participants and wishers, a user's participations,
 * interests and own events, and the events a page shows are answered from read models held here,
 * loaded once and kept current by the repositories after each write (EventsRepository,
 * EventUserLinksRepository: each fork is a `DatabaseEngine.run` there, whose MongoDB branch
 * queries the indexes). Exact because on the local engine the service runs as one instance (its
 * lease) and its repositories are the collections' only writers.
 */
@Injectable()
export class EventLocalEngine implements OnApplicationBootstrap {
  readonly events = new HeldEvents();
  private readonly links: Record<LinkKind, HeldLinks> = { participants: new HeldLinks(), wishers: new HeldLinks() };

  constructor(
    @InjectModel(EventDocument.name) private readonly eventModel: Model<EventDocument>,
    @InjectModel(ParticipantDocument.name) private readonly participantModel: Model<ParticipantDocument>,
    @InjectModel(WisherDocument.name) private readonly wisherModel: Model<WisherDocument>,
    private readonly engine: DatabaseEngine,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.events.preload(this.engine, () => this.allEvents());
    await this.links.participants.preload(this.engine, () => this.allLinks('participants'));
    await this.links.wishers.preload(this.engine, () => this.allLinks('wishers'));
  }

  /** The held links of a kind, once loaded. */
  async linksOf(kind: LinkKind): Promise<HeldLinks> {
    await this.links[kind].ready(() => this.allLinks(kind));
    return this.links[kind];
  }

  /** The held links of a kind, loaded or not: for upkeep, and for reads by `_id` that go to the database until the load has finished. */
  heldLinks(kind: LinkKind): HeldLinks {
    return this.links[kind];
  }

  /** The events of `ids` that exist, as stored; undefined until the events have loaded (the caller reads them by `_id`). */
  eventsById(ids: string[]): EventDocument[] | undefined {
    if (!this.events.loaded) return undefined;
    return ids.map((id) => this.events.get(id)).filter((e): e is EventDocument => e !== undefined);
  }

  async eventsOwnedBy(ownerId: string): Promise<EventDocument[]> {
    await this.events.ready(() => this.allEvents());
    return this.events.ownedBy(ownerId);
  }

  private async *allEvents(): AsyncIterable<EventDocument> {
    yield* this.eventModel.find({}).lean<EventDocument[]>().cursor();
  }

  private async *allLinks(kind: LinkKind): AsyncIterable<EventUserLink> {
    const model: Model<EventUserLink> = kind === 'participants' ? this.participantModel : this.wisherModel;
    yield* model.find({}, { participate_date: 0 }).lean<EventUserLink[]>().cursor();
  }
}
