import { EventCounter, EventsRepository } from '../events/events.repository';
import { eventTarget } from '../recovery/event-repair';
import { RepairJournal } from '@plaza/service-kit';
import { EventUsers } from '../users/event-users';
import { EventUserLink, EventUserLinksRepository, linkId } from './event-user-links';
import { ParticipantsRepository } from './participants.repository';

export type LinkKind = 'participant' | 'wisher';

type ImportedLink = EventUserLink & { participate_date?: string };

interface Pending {
  line: number;
  kind: LinkKind;
  link: ImportedLink;
}

/**
 * One import batch of `event_participant` / `event_wisher` records. Each line is checked as it
 * comes (the event and the user exist); at the end (`finish`) the batch's links are inserted
 * with one unordered insertMany per collection and each event's counter is recounted once. On
 * FerretDB that is a few transactions per 200 lines instead of two per line. The inserts and the
 * recounts run under one repair-journal entry naming the batch's events (a crash between them
 * leaves them to be recounted by the sweep). Lines that fail are reported with their number; a
 * line whose count cannot be written has its link taken back, so importing it again counts it.
 */
export class LinkImportBatch {
  private readonly pending: Pending[] = [];
  /** Whether each event named in this batch exists (a batch names the same events many times). */
  private readonly known = new Map<string, Promise<boolean>>();

  constructor(
    private readonly events: EventsRepository,
    private readonly users: EventUsers,
    private readonly participants: ParticipantsRepository,
    private readonly wishers: EventUserLinksRepository<EventUserLink>,
    private readonly now: () => Date,
    private readonly journal: Pick<RepairJournal, 'run'>,
  ) {}

  /** Checks one line and queues its link. */
  async add(kind: LinkKind, eventId: string, userId: string, line: number, participateDate?: string): Promise<void> {
    if (!(await this.eventExists(eventId))) throw new Error(`event ${eventId} does not exist`);
    if (!(await this.users.exists(userId))) throw new Error(`user ${userId} does not exist`);
    const link: ImportedLink = { _id: linkId(eventId, userId), event_id: eventId, user_id: userId, created: this.now() };
    if (participateDate !== undefined) link.participate_date = participateDate;
    this.pending.push({ line, kind, link });
  }

  /** Stores the queued links and their counts; returns the lines that failed, with the reason. */
  async finish(): Promise<Map<number, string>> {
    const failed = new Map<number, string>();
    for (const kind of ['participant', 'wisher'] as const) {
      const pending = this.pending.filter((p) => p.kind === kind);
      if (pending.length > 0) await this.store(kind, pending, failed);
    }
    this.pending.length = 0;
    return failed;
  }

  private async store(kind: LinkKind, pending: Pending[], failed: Map<number, string>): Promise<void> {
    const events = [...new Set(pending.map((p) => p.link.event_id))].map(eventTarget);
    await this.journal.run(events, () => this.storeLinks(kind, pending, failed));
  }

  private async storeLinks(kind: LinkKind, pending: Pending[], failed: Map<number, string>): Promise<void> {
    const repository = this.repository(kind);
    let outcome: Awaited<ReturnType<typeof repository.addMany>>;
    try {
      outcome = await repository.addMany(pending.map((p) => p.link));
    } catch (err) {
      for (const p of pending) failed.set(p.line, `not stored: ${(err as Error).message}`);
      return;
    }
    const newByEvent = new Map<string, Pending[]>();
    for (const [i, p] of pending.entries()) {
      const result = outcome[i];
      if (result === 'added') newByEvent.set(p.link.event_id, [...(newByEvent.get(p.link.event_id) ?? []), p]);
      else if (result !== 'existing') failed.set(p.line, result.error);
      else if (kind === 'participant' && p.link.participate_date !== undefined) {
        // already taking part: only the chosen day may change
        await this.participants.setDate(p.link.event_id, p.link.user_id, p.link.participate_date);
      }
    }

    const counter: EventCounter = kind === 'participant' ? 'participant_count' : 'wisher_count';
    await Promise.all(
      [...newByEvent].map(async ([eventId, links]) => {
        try {
          await this.events.recount(eventId, [counter]);
        } catch (err) {
          await Promise.all(links.map((p) => repository.remove(eventId, p.link.user_id).catch(() => false)));
          for (const p of links) failed.set(p.line, `the ${counter} of event ${eventId} could not be written: ${(err as Error).message}`);
        }
      }),
    );
  }

  private eventExists(eventId: string): Promise<boolean> {
    let known = this.known.get(eventId);
    if (!known) {
      known = this.events.byId(eventId).then((e) => e !== null);
      this.known.set(eventId, known);
    }
    return known;
  }

  private repository(kind: LinkKind): EventUserLinksRepository<EventUserLink> {
    return kind === 'participant' ? (this.participants as EventUserLinksRepository<EventUserLink>) : this.wishers;
  }
}
