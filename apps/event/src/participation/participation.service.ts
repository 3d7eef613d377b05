import { Inject, Injectable } from '@nestjs/common';
import { ApiError, Caller, envelope, EventPageRequest, EventUserList, EventView, ParticipateRequest } from '@plaza/contracts';
import { CLOCK, Clock } from '@plaza/platform';
import { EventPresenter } from '../events/event-presenter';
import { EventCounter, EventCounters, EventsRepository } from '../events/events.repository';
import { EventsService } from '../events/events.service';
import { EventRepair, eventTarget } from '../recovery/event-repair';
import { EventUsers } from '../users/event-users';
import { EventUserLink, EventUserLinksRepository, linkId } from './event-user-links';
import { LinkImportBatch } from './link-import';
import { ParticipantsRepository } from './participants.repository';
import { WishersRepository } from './wishers.repository';

/** How many of a user's links an account deletion reads at once. */
const ERASURE_BATCH = 500;

/**
 * Taking part in and being interested in events. Each is one document per (event, user); the
 * event's counter is recounted from those documents after one was really inserted or deleted, so
 * repeating a join or a leave changes nothing and 200 concurrent joins count 200. The link and
 * the recount run under a repair-journal entry (EventRepair): a process that dies between them
 * leaves the event to be recounted by the next sweep.
 */
@Injectable()
export class ParticipationService {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly events: EventsRepository,
    private readonly reader: EventsService,
    private readonly participants: ParticipantsRepository,
    private readonly wishers: WishersRepository,
    private readonly users: EventUsers,
    private readonly presenter: EventPresenter,
    private readonly repair: EventRepair,
  ) {}

  async participantList(req: EventPageRequest): Promise<EventUserList> {
    return this.userList(this.participants, req);
  }

  async wisherList(req: EventPageRequest): Promise<EventUserList> {
    return this.userList(this.wishers, req);
  }

  async join(req: ParticipateRequest): Promise<EventView> {
    const userId = this.userOf(req.caller);
    const event = await this.reader.visible(req.id, req.caller, true);
    const counts = await this.link(this.participants, 'participant_count', req.id, userId, { participate_date: req.participate_date });
    if (counts) return this.presenter.one({ ...event, ...counts });
    if (req.participate_date !== undefined) {
      // already taking part: only the chosen day may change, the count never does
      const existing = await this.participants.find(req.id, userId);
      if (existing && existing.participate_date !== req.participate_date) await this.participants.setDate(req.id, userId, req.participate_date);
    }
    return this.current(req.id);
  }

  async leave(req: { id: string; caller: Caller }): Promise<EventView> {
    return this.unlinkAndShow(this.participants, 'participant_count', req);
  }

  async wish(req: { id: string; caller: Caller }): Promise<EventView> {
    const userId = this.userOf(req.caller);
    const event = await this.reader.visible(req.id, req.caller, true);
    const counts = await this.link(this.wishers, 'wisher_count', req.id, userId, {});
    return counts ? this.presenter.one({ ...event, ...counts }) : this.current(req.id);
  }

  async unwish(req: { id: string; caller: Caller }): Promise<EventView> {
    return this.unlinkAndShow(this.wishers, 'wisher_count', req);
  }

  /**
   * Account deletion (docs/api/account.md): every participation and interest of the user removed,
   * each under the event's journal entry with its counter moved back, as a leave or an unwish
   * (whatever the event's privacy now). Returns how many links were removed; a second run finds none.
   */
  async eraseUser(userId: string): Promise<{ participations: number; interests: number }> {
    const erased = { participations: 0, interests: 0 };
    const kinds = [[this.participants, 'participant_count', 'participations'], [this.wishers, 'wisher_count', 'interests']] as const;
    for (const [links, counter, name] of kinds) {
      // a bounded read at a time (the links it names are gone before the next)
      for (;;) {
        const eventIds = await (links as EventUserLinksRepository<EventUserLink>).eventIdsOf(userId, ERASURE_BATCH);
        for (const eventId of eventIds) {
          await this.repair.journal.run([eventTarget(eventId)], async () => {
            const { moved } = await this.events.change(eventId, counter, async () => ((await links.remove(eventId, userId)) ? -1 : 0));
            if (moved) erased[name]++;
          });
        }
        if (eventIds.length < ERASURE_BATCH) break;
      }
    }
    return erased;
  }

  /** Import of participations and interest: links one batch at a time, counted once per event (see LinkImportBatch). */
  startImport(): LinkImportBatch {
    return new LinkImportBatch(this.events, this.users, this.participants, this.wishers, () => this.clock.now(), this.repair.journal);
  }

  /**
   * Inserts the link under the event's lock; only a new one moves the counter. Returns the counts
   * after the change, or null when the link was already there. A process that dies between the
   * link and the counter leaves a journal entry: the sweep recounts the event.
   */
  private async link<T extends EventUserLink>(
    links: EventUserLinksRepository<T>, counter: EventCounter, eventId: string, userId: string, extra: Partial<T>,
  ): Promise<EventCounters | null> {
    return this.repair.journal.run([eventTarget(eventId)], async () => {
      const { counts, moved } = await this.events.change(eventId, counter, async () => ((await links.add(this.newLink(eventId, userId, extra))) ? 1 : 0));
      return moved ? counts : null;
    });
  }

  /** Removes the link under the event's lock and moves the counter back (a journal entry covers the two steps). */
  private async unlinkAndShow<T extends EventUserLink>(
    links: EventUserLinksRepository<T>, counter: EventCounter, req: { id: string; caller: Caller },
  ): Promise<EventView> {
    const userId = this.userOf(req.caller);
    const event = await this.reader.visible(req.id, req.caller, true);
    const counts = await this.repair.journal.run([eventTarget(req.id)], async () => {
      const { counts: after, moved } = await this.events.change(req.id, counter, async () => ((await links.remove(req.id, userId)) ? -1 : 0));
      return moved ? after : null;
    });
    return counts ? this.presenter.one({ ...event, ...counts }) : this.current(req.id);
  }

  private newLink<T extends EventUserLink>(eventId: string, userId: string, extra: Partial<T>): T {
    const doc = { _id: linkId(eventId, userId), event_id: eventId, user_id: userId, created: this.clock.now() } as T;
    for (const [key, value] of Object.entries(extra)) if (value !== undefined) (doc as Record<string, unknown>)[key] = value;
    return doc;
  }

  private async userList<T extends EventUserLink>(links: EventUserLinksRepository<T>, req: EventPageRequest): Promise<EventUserList> {
    await this.reader.visible(req.id, req.caller);
    const { total, userIds } = await links.page(req.id, req.page.start, req.page.count);
    return envelope('users', req.page.start, total, await this.users.byIds(userIds));
  }

  private async current(id: string): Promise<EventView> {
    const event = await this.events.byId(id);
    if (!event) throw new ApiError('uri_not_found', `no event ${id}`);
    return this.presenter.one(event);
  }

  /** The gateway lets only logged-in users through; this guards the message contract itself. */
  private userOf(caller: Caller): string {
    if (!caller.userId) throw new ApiError('need_permission', 'a logged-in user is required');
    return caller.userId;
  }
}
