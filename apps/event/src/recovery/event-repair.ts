import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Drift, ReconcileResponse } from '@plaza/contracts';
import { LOGGER, Logger, ReadinessRegistry, Metrics } from '@plaza/platform';
import type { Connection } from 'mongoose';
import { EVENT_COUNTERS, EventsRepository } from '../events/events.repository';
import { ParticipantsRepository } from '../participation/participants.repository';
import { WishersRepository } from '../participation/wishers.repository';
import { RepairJournal, scheduleSweeps, splitTarget, SweepResult } from '@plaza/service-kit';

/** How often the journal is swept while the service runs (it is swept at start too). */
const SWEEP_INTERVAL_MS = 60_000;
const MAX_SAMPLES = 50;

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

  /** `event.v1.reconcile.run`: every event's participant_count and wisher_count against its links. */
  async reconcile(repair: boolean): Promise<ReconcileResponse> {
    const started = Date.now();
    // a dry run changes nothing: not even the journal's repairs (their targets count as busy)
    const journal = repair ? await this.sweep() : { entries: 0, repaired: 0, failed: 0, removed: 0 };
    const busy = await this.journal.openTargets();
    const [participants, wishers] = await Promise.all([this.participants.countsByEvent(), this.wishers.countsByEvent()]);
    const checked = { events: 0, event_participants: sum(participants), event_wishers: sum(wishers) };
    const drifts: Drift[] = [];
    const toRepair = new Set<string>();
    let busyCount = 0;
    for await (const event of this.events.allCounters()) {
      checked.events++;
      if (busy.has(eventTarget(event._id))) {
        busyCount++;
        continue;
      }
      const joined = participants.get(event._id) ?? 0;
      const wished = wishers.get(event._id) ?? 0;
      if ((event.participant_count ?? 0) !== joined) drifts.push({ kind: 'event.participant_count', id: event._id, stored: event.participant_count ?? 0, source: joined });
      if ((event.wisher_count ?? 0) !== wished) drifts.push({ kind: 'event.wisher_count', id: event._id, stored: event.wisher_count ?? 0, source: wished });
      if (drifts.length > 0 && drifts[drifts.length - 1].id === event._id) toRepair.add(event._id);
    }
    let repaired = 0;
    if (repair) {
      for (const id of toRepair) {
        await this.events.recount(id, EVENT_COUNTERS);
        repaired += drifts.filter((d) => d.id === id).length;
      }
    }
    const drifted: Record<string, number> = {};
    for (const d of drifts) drifted[d.kind] = (drifted[d.kind] ?? 0) + 1;
    for (const [kind, count] of Object.entries(drifted)) Metrics.reconcileDrift(kind, count);
    if (drifts.length > 0) this.logger.warn({ drifted, repaired, samples: drifts.slice(0, 10) }, 'reconcile: derived values differed from their sources');
    else this.logger.info({ checked, busy: busyCount }, 'reconcile: every derived value equals its source');
    return {
      service: 'event', checked, drifted, repaired, samples: drifts.slice(0, MAX_SAMPLES), busy: busyCount,
      journal: { entries: journal.entries, repaired: journal.repaired, removed: journal.removed }, ms: Date.now() - started,
    };
  }
}

const sum = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
