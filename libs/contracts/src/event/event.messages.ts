import { Type } from 'class-transformer';
import { IsOptional, Matches, ValidateNested } from 'class-validator';
import { PageRequest } from '../common/paging';
import { Caller } from '../messaging/caller';
import { defineMessage } from '../messaging/define-message';
import { EventListQuery, EventSearchQuery, ParticipateBody, UserEventsQuery } from './event.dto';
import { EventList, EventUserList, EventView, LocList, LocView } from './event.shapes';
import { PATH_ID } from '../common/path-params';

/** One event, as seen by the caller (a private event exists only for its owner and participants). */
export class EventRequest {
  @Matches(PATH_ID) id!: string;
  @ValidateNested() @Type(() => Caller) caller!: Caller;
}

export class EventPageRequest extends EventRequest {
  @ValidateNested() @Type(() => PageRequest) page!: PageRequest;
}

/** The caller joins (or updates the day it will come). */
export class ParticipateRequest extends ParticipateBody {
  @Matches(PATH_ID) id!: string;
  @ValidateNested() @Type(() => Caller) caller!: Caller;
}

/** Events a user created. */
export class UserCreatedEventsRequest {
  @Matches(PATH_ID) userId!: string;
  @ValidateNested() @Type(() => Caller) caller!: Caller;
  @ValidateNested() @Type(() => PageRequest) page!: PageRequest;
}

/** Events a user takes part in or is interested in, optionally by status. */
export class UserEventsRequest extends UserEventsQuery {
  @Matches(PATH_ID) userId!: string;
  @ValidateNested() @Type(() => Caller) caller!: Caller;
  @ValidateNested() @Type(() => PageRequest) page!: PageRequest;
}

/** GET /v2/event/list: the same rules as the HTTP query, checked again at the service. */
export class EventListRequest extends EventListQuery {
  @ValidateNested() @Type(() => Caller) caller!: Caller;
  @ValidateNested() @Type(() => PageRequest) page!: PageRequest;
}

/** GET /v2/event/search: the same rules as the HTTP query, checked again at the service. */
export class EventSearchRequest extends EventSearchQuery {
  @ValidateNested() @Type(() => Caller) caller!: Caller;
  @ValidateNested() @Type(() => PageRequest) page!: PageRequest;
}

export class LocRequest {
  @Matches(PATH_ID) id!: string;
}

export class LocListRequest {
  @IsOptional() @ValidateNested() @Type(() => PageRequest) page: PageRequest = new PageRequest();
}

/** Every request/reply of the event service (subjects `event.v1.<resource>.<action>`). */
export const EventMessages = {
  get: defineMessage<EventRequest, EventView>('event.v1.event.get', EventRequest),
  list: defineMessage<EventListRequest, EventList>('event.v1.event.list', EventListRequest),
  search: defineMessage<EventSearchRequest, EventList>('event.v1.event.search', EventSearchRequest),
  createdBy: defineMessage<UserCreatedEventsRequest, EventList>('event.v1.event.created-by', UserCreatedEventsRequest),
  participatedBy: defineMessage<UserEventsRequest, EventList>('event.v1.event.participated-by', UserEventsRequest),
  wishedBy: defineMessage<UserEventsRequest, EventList>('event.v1.event.wished-by', UserEventsRequest),
  participants: defineMessage<EventPageRequest, EventUserList>('event.v1.participant.list', EventPageRequest),
  wishers: defineMessage<EventPageRequest, EventUserList>('event.v1.wisher.list', EventPageRequest),
  /** Join, leave, wish, unwish: idempotent; each answers with the Event as it is afterwards. */
  join: defineMessage<ParticipateRequest, EventView>('event.v1.participant.add', ParticipateRequest),
  leave: defineMessage<EventRequest, EventView>('event.v1.participant.remove', EventRequest),
  wish: defineMessage<EventRequest, EventView>('event.v1.wisher.add', EventRequest),
  unwish: defineMessage<EventRequest, EventView>('event.v1.wisher.remove', EventRequest),
  getLoc: defineMessage<LocRequest, LocView>('event.v1.loc.get', LocRequest),
  listLocs: defineMessage<LocListRequest, LocList>('event.v1.loc.list', LocListRequest),
} as const;
