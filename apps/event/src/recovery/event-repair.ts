import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Drift, ReconcileResponse } from '@plaza/contracts';
import { LOGGER, Logger, ReadinessRegistry } from '@plaza/platform';
import type { Connection } from 'mongoose';
import { EVENT_COUNTERS, EventsRepository, StoredEvent } from '../events/events.repository';
import { ParticipantsRepository } from '../participation/participants.repository';
import { WishersRepository } from '../participation/wishers.repository';
import { confirmDrifts, NO_SWEEP, reconcileReport, RepairJournal, repairDrifts, scheduleSweeps, splitTarget, SweepResult } from '@plaza/service-kit';

/** How often the journal is swept while the service runs (it is swept at start too). */
const SWEEP_INTERVAL_MS = 60_000;

export const eventTarget = (eventId: string) => `event:${eventId}`;

/**
 * Crash consistency of the event area. A join, a leave, a wish, an unwish and an import batch
 * of links each change a link document and then recount the event's counter; both steps run
 * under an entry of the `event_repairs` journal, and a process that dies between them leaves the
 * entry for the sweep at start (the service is not ready before it ran) and every minute, which
 * recounts the event. A recount is right whenever it runs, also while the writer is alive.
 */
@Injectable()
export class EventRepair implements OnModuleInit, OnApplicationShutdown {
  readonly journal: RepairJournal;
  private schedule?: { first: Promise<void>; stop(): void };
  private recovered = false;

  constructor(
    @InjectConnection() connection: Connection,
    private readonly events: EventsRepository,
    private readonly participants: ParticipantsRepository,
    private readonly wishers: WishersRepository,
    private readonly readiness: ReadinessRegistry,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.journal = new RepairJournal(connection, 'event_repairs');
  }

  onModuleInit(): void {
    this.readiness.register({ name: 'recovery', check: async () => this.recovered });
    this.schedule = scheduleSweeps(() => this.sweep(), SWEEP_INTERVAL_MS, (err) => this.logger.warn({ err: err.message }, 'event repair sweep failed; will retry'));
    void this.schedule.first.then(() => (this.recovered = true));
  }

  async onApplicationShutdown(): Promise<void> {
    this.schedule?.stop();
    await this.journal.flush();
  }

  async sweep(): Promise<SweepResult> {
    const result = await this.journal.sweep((target) => this.repair(target));
    if (result.entries > 0) this.logger.info({ ...result }, 'event writes left unfinished were repaired');
    return result;
  }

  /** Recounts both counters of the event (an event that is gone has nothing to repair). */
  async repair(target: string): Promise<void> {
    const [kind, id] = splitTarget(target);
    if (kind !== 'event') throw new Error(`not an event target: ${target}`);
    if (!(await this.events.byId(id))) return;
    await this.events.recount(id, EVENT_COUNTERS);
  }

  /**
   * `event.v1.reconcile.run`: every event's participant_count and wisher_count against its
   * links. A bulk pass finds the suspects; each is confirmed on its own (confirmDrifts) before it
   * counts as drift, is repaired and goes to the metric.
   */
  async reconcile(repair: boolean): Promise<ReconcileResponse> {
    const started = Date.now();
    // a dry run changes nothing: not even the journal's repairs (their targets count as busy)
    const journal = repair ? await this.sweep() : NO_SWEEP;
    const open = await this.journal.openTargets();
    const [participants, wishers] = await Promise.all([this.participants.countsByEvent(), this.wishers.countsByEvent()]);
    const checked = { events: 0, event_participants: sum(participants), event_wishers: sum(wishers) };
    const suspects: string[] = [];
    let busy = 0;
    for await (const event of this.events.allCounters()) {
      checked.events++;
      if (open.has(eventTarget(event._id))) busy++;
      else if (eventDrifts(event, participants.get(event._id) ?? 0, wishers.get(event._id) ?? 0).length > 0) suspects.push(event._id);
    }
    const confirmed = await confirmDrifts(suspects, {
      target: eventTarget,
      // the lock the counter writer holds from a link's change to the counter's write
      exclusive: (id, task) => this.events.exclusive(id, task),
      differences: (id) => this.differences(id),
      openTargets: () => this.journal.openTargets(),
    });
    const repaired = repair ? await repairDrifts(confirmed.drifts, (id) => this.events.recount(id, EVENT_COUNTERS)) : 0;
    return reconcileReport('event', { checked, drifts: confirmed.drifts, repaired, busy: busy + confirmed.busy, journal, started }, this.logger);
  }

  /** One event as stored against its links counted now; under its lock (an event is never deleted). */
  private async differences(id: string): Promise<Drift[]> {
    const event = await this.events.storedById(id);
    if (!event) return [];
    const [joined, wished] = await Promise.all([this.participants.storedCountForEvent(id), this.wishers.storedCountForEvent(id)]);
    return eventDrifts(event, joined, wished);
  }
}

function eventDrifts(event: Pick<StoredEvent, '_id' | 'participant_count' | 'wisher_count'>, joined: number, wished: number): Drift[] {
  const drifts: Drift[] = [];
  if ((event.participant_count ?? 0) !== joined) drifts.push({ kind: 'event.participant_count', id: event._id, stored: event.participant_count ?? 0, source: joined });
  if ((event.wisher_count ?? 0) !== wished) drifts.push({ kind: 'event.wisher_count', id: event._id, stored: event.wisher_count ?? 0, source: wished });
  return drifts;
}

const sum = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
