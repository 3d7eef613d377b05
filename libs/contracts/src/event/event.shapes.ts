import { ListEnvelope } from '../common/paging';
import { EventUser } from '../common/user';
import { EventCategory } from './event-categories';

export type YesNo = 'yes' | 'no';

/** The Event of docs/api/event.md, "Event" (every field a string unless noted), `category`/`category_name` included. */
export interface EventView {
  id: string;
  title: string;
  content: string;
  alt: string;
  adapt_url: string;
  image: string;
  'image-hlarge': string;
  'image-lmobile': string;
  /** `yyyy-MM-dd HH:mm:ss` in SERVICE_TIMEZONE. */
  begin_time: string;
  end_time: string;
  owner: EventUser;
  /** `"<lat> <lng>"`, or empty when unknown. */
  geo: string;
  address: string;
  loc_id: string;
  loc_name: string;
  album: string;
  is_priv: YesNo;
  has_invited: YesNo;
  can_invite: YesNo;
  participant_count: number;
  wisher_count: number;
  category: EventCategory;
  category_name: string;
}

/** City (loc). `parent` is the uid of the parent region (empty for a top-level region). */
export interface LocView {
  id: string;
  name: string;
  uid: string;
  parent: string;
  habitable: YesNo;
}

export type EventList = ListEnvelope<'events', EventView>;
export type EventUserList = ListEnvelope<'users', EventUser>;
export type LocList = ListEnvelope<'locs', LocView>;
