import { Inject, Injectable } from '@nestjs/common';
import {
  ApiError, Caller, envelope, EventList, EventListRequest, EventSearchRequest, EventStatus, EventView, PageRequest, parseEventCategory,
  UserCreatedEventsRequest, UserEventsRequest,
} from '@plaza/contracts';
import { APP_CONFIG, CLOCK, Clock, withinPageBudget } from '@plaza/platform';
import { queryTerms } from '@plaza/search';
import { EventConfig } from '../config/event.config';
import { LocsRepository } from '../locs/locs.repository';
import { EventUserLinksRepository, EventUserLink } from '../participation/event-user-links';
import { ParticipantsRepository } from '../participation/participants.repository';
import { WishersRepository } from '../participation/wishers.repository';
import { EventUsers } from '../users/event-users';
import { EventPresenter } from './event-presenter';
import { dayWindow, hasStatus } from './event-windows';
import { EventSearchRepository } from './event-search.repository';
import { EventsRepository, EventSummary, StoredEvent } from './events.repository';
import { latestBeginningFirst } from './local-engine';

/**
 * How far a user's list reaches (docs/api/event.md): their latest 1 000 participations or
 * interests, or their 1 000 own events that begin last. Each list then reads a bounded number of
 * index entries on MongoDB, as search does (docs/ENGINES.md, "Bounds").
 */
export const USER_LIST_REACH = 1000;

/**
 * Reading events: one event, the city list by day window and type, and a user's created,
 * joined and wished events. A private event exists only for its owner and its participants:
 * everyone else gets 404/1001 for it and never sees it in a list.
 */
@Injectable()
export class EventsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: EventConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly events: EventsRepository,
    private readonly participants: ParticipantsRepository,
    private readonly wishers: WishersRepository,
    private readonly locs: LocsRepository,
    private readonly users: EventUsers,
    private readonly presenter: EventPresenter,
    private readonly searchEntries: EventSearchRepository,
  ) {}

  async get(id: string, caller: Caller): Promise<EventView> {
    return this.presenter.one(await this.visible(id, caller));
  }

  /**
   * The stored event if the caller may see it; 404/1001 otherwise (missing or someone else's
   * private event). `shared` (writes): concurrent checks of one event share one read; a write
   * shows the counters its own write returned, never this read's.
   */
  async visible(id: string, caller: Caller, shared = false): Promise<StoredEvent> {
    const event = shared ? await this.events.byIdShared(id) : await this.events.byId(id);
    if (!event || !(await this.canSee(event, caller))) throw new ApiError('uri_not_found', `no event ${id}`);
    return event;
  }

  async list(req: EventListRequest): Promise<EventList> {
    const loc = await this.locs.byRef(req.loc);
    if (!loc) throw new ApiError('uri_not_found', `no city ${req.loc}`);
    const now = this.clock.now();
    const window = dayWindow(req.day_type ?? 'future', now, this.config.SERVICE_TIMEZONE);
    const category = req.type === undefined || req.type === 'all' ? undefined : parseEventCategory(req.type);
    if (req.type !== undefined && req.type !== 'all' && !category) throw new ApiError('invalid_args', `type ${req.type}`);
    const found = await this.events.inLoc(loc._id, window, now, category);
    return this.page(await this.onlyVisible(found, req.caller), req.page);
  }

  /**
   * `GET /v2/event/search` (docs/api/event.md): public events whose title, address or opening of
   * the content hold every term of `q` (libs/search, as book search), with the list's city, window
   * and type; soonest beginning first. The page is cut in the database, at most the first 1 000
   * matches are reachable.
   */
  async search(req: EventSearchRequest): Promise<EventList> {
    let locId: string | undefined;
    if (req.loc !== undefined) {
      const loc = await this.locs.byRef(req.loc);
      if (!loc) throw new ApiError('uri_not_found', `no city ${req.loc}`);
      locId = loc._id;
    }
    const category = req.type === undefined || req.type === 'all' ? undefined : parseEventCategory(req.type);
    if (req.type !== undefined && req.type !== 'all' && !category) throw new ApiError('invalid_args', `type ${req.type}`);
    const now = this.clock.now();
    const window = dayWindow(req.day_type ?? 'future', now, this.config.SERVICE_TIMEZONE);
    const { total, ids } = await this.searchEntries.page({ terms: queryTerms(req.q), window, now, locId, category }, req.page.start, req.page.count);
    // an entry is written after its event, so each id names a stored public event
    const found = (await this.events.byIds(ids)).filter((e) => !e.is_priv);
    return envelope('events', req.page.start, total, withinPageBudget(await this.presenter.many(found)));
  }

  async createdBy(req: UserCreatedEventsRequest): Promise<EventList> {
    await this.users.mustExist(req.userId);
    const found = await this.events.byOwner(req.userId, USER_LIST_REACH);
    return this.pageOfSummaries(await this.onlyVisible(found, req.caller), req.page);
  }

  async participatedBy(req: UserEventsRequest): Promise<EventList> {
    return this.linkedTo(this.participants, req);
  }

  async wishedBy(req: UserEventsRequest): Promise<EventList> {
    return this.linkedTo(this.wishers, req);
  }

  /** The events of the user's latest links (USER_LIST_REACH), latest beginning first. */
  private async linkedTo<T extends EventUserLink>(links: EventUserLinksRepository<T>, req: UserEventsRequest): Promise<EventList> {
    await this.users.mustExist(req.userId);
    const now = this.clock.now();
    const status: EventStatus | undefined = req.status;
    const found = (await this.events.summaries(await links.eventIdsOf(req.userId, USER_LIST_REACH)))
      .filter((e) => status === undefined || hasStatus({ end: new Date(e.end) }, status, now))
      .sort(latestBeginningFirst);
    return this.pageOfSummaries(await this.onlyVisible(found, req.caller), req.page);
  }

  private async page(events: StoredEvent[], page: PageRequest): Promise<EventList> {
    const slice = events.slice(page.start, page.start + page.count);
    return envelope('events', page.start, events.length, withinPageBudget(await this.presenter.many(slice)));
  }

  /** A user's list: its page's events are read once it is sorted and filtered, a page's worth whatever its length. */
  private async pageOfSummaries(events: EventSummary[], page: PageRequest): Promise<EventList> {
    const slice = await this.events.byIds(events.slice(page.start, page.start + page.count).map((e) => e._id));
    return envelope('events', page.start, events.length, withinPageBudget(await this.presenter.many(slice)));
  }

  private async canSee(event: EventSummary, caller: Caller): Promise<boolean> {
    if (!event.is_priv) return true;
    const userId = caller.userId;
    if (!userId) return false;
    return userId === event.owner_id || this.participants.has(event._id, userId);
  }

  /** The events the caller may see: the private ones of others checked in one read of the caller's links. */
  private async onlyVisible<E extends EventSummary>(events: E[], caller: Caller): Promise<E[]> {
    const userId = caller.userId;
    const others = events.filter((e) => e.is_priv && e.owner_id !== userId);
    if (others.length === 0) return events;
    const joined = userId ? await this.participants.linkedAmong(others.map((e) => e._id), userId) : new Set<string>();
    return events.filter((e) => !e.is_priv || e.owner_id === userId || joined.has(e._id));
  }
}
