import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { EventCategory, ImportBatch, ImportBatchResult, importBatchMessage, parseEventCategory } from '@plaza/contracts';
import { APP_CONFIG, CacheInvalidator, ImportKindHandler, parseZonedTimestamp, runImportBatch } from '@plaza/platform';
import { ChangeFeed } from '@plaza/service-kit';
import { EventConfig } from '../config/event.config';
import { EventsRepository } from '../events/events.repository';
import { LocsRepository } from '../locs/locs.repository';
import { ParticipationService } from '../participation/participation.service';
import { EventUsers } from '../users/event-users';
import {
  EventImportRecord, EventParticipantImportRecord, EventWisherImportRecord, LocImportRecord,
} from './event-import.records';

const flag = (value: 'yes' | 'no' | boolean | undefined) => value === true || value === 'yes';

/** Loads `loc`, `event`, `event_participant` and `event_wisher` records (docs/api/import.md); idempotent. */
@Controller()
export class EventImportController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: EventConfig,
    private readonly locs: LocsRepository,
    private readonly events: EventsRepository,
    private readonly participation: ParticipationService,
    private readonly users: EventUsers,
    private readonly cache: CacheInvalidator,
    private readonly feed: ChangeFeed,
  ) {}

  @MessagePattern(importBatchMessage('event').subject)
  async batch(@Payload() batch: ImportBatch): Promise<ImportBatchResult> {
    const links = this.participation.startImport();
    const handlers: Record<string, ImportKindHandler<object>> = {
      loc: { record: LocImportRecord, upsert: (r) => this.importLoc(r as LocImportRecord) },
      event: { record: EventImportRecord, upsert: (r) => this.importEvent(r as EventImportRecord) },
      event_participant: {
        record: EventParticipantImportRecord,
        upsert: (r, line) => {
          const p = r as EventParticipantImportRecord;
          return links.add('participant', p.event_id, p.user_id, line, p.participate_date);
        },
      },
      event_wisher: {
        record: EventWisherImportRecord,
        upsert: (r, line) => {
          const w = r as EventWisherImportRecord;
          return links.add('wisher', w.event_id, w.user_id, line);
        },
      },
    };
    // more lines at once than the default: a batch's participations of one event then share few writes
    const result = await runImportBatch(batch, handlers, 8);
    const uncounted = await links.finish();
    for (const r of result.results) {
      const error = uncounted.get(r.line);
      if (error) Object.assign(r, { ok: false, error });
    }
    // cities are cached by the gateway (GET /v2/loc/...); events are not
    this.cache.areas('event');
    return result;
  }

  /** A changed city or event is one entry of the change feed (docs/api/changes.md); the same record again, none. */
  private async importLoc(r: LocImportRecord): Promise<void> {
    const loc = {
      _id: r.id,
      uid: r.uid,
      name: r.name.trim(),
      parent: r.parent ?? '',
      habitable: r.habitable === undefined ? true : flag(r.habitable),
      order: Number(r.id),
    };
    await this.feed.record('city', r.id, loc, () => this.locs.upsert(loc));
  }

  private async importEvent(r: EventImportRecord): Promise<void> {
    const tz = this.config.SERVICE_TIMEZONE;
    const begin = parseZonedTimestamp(r.begin_time, tz);
    const end = parseZonedTimestamp(r.end_time, tz);
    if (!begin) throw new Error('begin_time must be yyyy-MM-dd HH:mm:ss');
    if (!end) throw new Error('end_time must be yyyy-MM-dd HH:mm:ss');
    if (end.getTime() < begin.getTime()) throw new Error('end_time is before begin_time');
    const ownerId = r.owner?.id ?? r.owner_id;
    if (!ownerId) throw new Error('owner (with its id) or owner_id is required');
    if (!(await this.users.exists(ownerId))) throw new Error(`owner ${ownerId} does not exist`);
    if (!(await this.locs.byIdCached(r.loc_id))) throw new Error(`loc ${r.loc_id} does not exist`);
    const geo = r.geo === undefined ? '' : r.geo.trim().split(/\s+/).join(' ');
    if (geo) {
      const [lat, lng] = geo.split(' ').map(Number);
      if (Math.abs(lat) > 90 || Math.abs(lng) > 180) throw new Error('geo is out of range (latitude first)');
    }
    const category: EventCategory = parseEventCategory(r.category) ?? 'others';
    // one poster given: it serves for the sizes not given; none: the service derives all three
    const image = r.image;
    const fields = {
      _id: r.id,
      title: r.title,
      content: r.content ?? '',
      image,
      image_hlarge: r['image-hlarge'] ?? image,
      image_lmobile: r['image-lmobile'] ?? image,
      alt: r.alt,
      adapt_url: r.adapt_url,
      begin,
      end,
      owner_id: ownerId,
      geo,
      address: r.address ?? '',
      loc_id: r.loc_id,
      album: r.album ?? '',
      is_priv: flag(r.is_priv),
      has_invited: flag(r.has_invited),
      can_invite: flag(r.can_invite),
      category,
    };
    await this.feed.record('event', r.id, fields, () => this.events.upsert(fields));
  }
}
