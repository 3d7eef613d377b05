import { Inject, Injectable } from '@nestjs/common';
import { EventCategoryLabels, EventUser, EventView, YesNo } from '@plaza/contracts';
import { APP_CONFIG, formatTimestamp } from '@plaza/platform';
import { EventConfig } from '../config/event.config';
import { LocsRepository } from '../locs/locs.repository';
import { EventUsers, toEventUser } from '../users/event-users';
import { StoredEvent } from './events.repository';

const yesNo = (value: boolean): YesNo => (value ? 'yes' : 'no');

/** Stored events → the Event of docs/api/event.md ("Event"), with the owner and the city name looked up. */
@Injectable()
export class EventPresenter {
  private readonly web: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: EventConfig,
    private readonly users: EventUsers,
    private readonly locs: LocsRepository,
  ) {
    this.web = config.PUBLIC_WEB_URL.replace(/\/$/, '');
  }

  async one(event: StoredEvent): Promise<EventView> {
    return (await this.many([event]))[0];
  }

  async many(events: StoredEvent[]): Promise<EventView[]> {
    if (events.length === 0) return [];
    const ownerIds = [...new Set(events.map((e) => e.owner_id))];
    const locIds = [...new Set(events.map((e) => e.loc_id))];
    const [owners, locs] = await Promise.all([this.users.byIds(ownerIds), Promise.all(locIds.map((id) => this.locs.byIdCached(id)))]);
    const ownerById = new Map(owners.map((o) => [o.id, o]));
    // the city name is looked up, not copied into the event, so renaming a city renames it everywhere
    const locName = new Map(locIds.map((id, i) => [id, locs[i]?.name ?? '']));
    return events.map((e) => this.view(e, ownerById.get(e.owner_id) ?? toEventUser(undefined, e.owner_id), locName.get(e.loc_id) ?? ''));
  }

  private view(e: StoredEvent, owner: EventUser, locName: string): EventView {
    const tz = this.config.SERVICE_TIMEZONE;
    return {
      id: e._id,
      title: e.title,
      content: e.content,
      alt: e.alt ?? `${this.web}/event/${e._id}/`,
      adapt_url: e.adapt_url ?? `${this.web}/m/event/${e._id}/`,
      image: e.image ?? `${this.web}/pics/event/${e._id}/large.jpg`,
      'image-hlarge': e.image_hlarge ?? `${this.web}/pics/event/${e._id}/hlarge.jpg`,
      'image-lmobile': e.image_lmobile ?? `${this.web}/pics/event/${e._id}/lmobile.jpg`,
      begin_time: formatTimestamp(new Date(e.begin), tz),
      end_time: formatTimestamp(new Date(e.end), tz),
      owner,
      geo: e.geo,
      address: e.address,
      loc_id: e.loc_id,
      loc_name: locName,
      album: e.album,
      is_priv: yesNo(e.is_priv),
      has_invited: yesNo(e.has_invited),
      can_invite: yesNo(e.can_invite),
      participant_count: Math.max(0, e.participant_count ?? 0),
      wisher_count: Math.max(0, e.wisher_count ?? 0),
      category: e.category,
      category_name: EventCategoryLabels[e.category] ?? EventCategoryLabels.others,
    };
  }
}
