import { Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  Caller, EventListQuery, EventMessages, EventSearchQuery, PageRequest, UserEventsQuery, validateInput,
} from '@plaza/contracts';
import { ServiceBus, RequestOrigin } from '@plaza/platform';
import type { FastifyRequest } from 'fastify';
import { Endpoint } from '../../endpoints/endpoint.decorator';
import { Endpoints } from '../../endpoints/endpoint-table';
import { CurrentCaller, Page, Origin } from '../../http/request-context';
import { readRequestBody } from '../../pictures/multipart-body';

/** Events, their participants and wishers (docs/api/event.md, "Endpoints"); every rule lives in the event service. */
@ApiTags('event')
@Controller()
export class EventController {
  constructor(private readonly bus: ServiceBus) {}

  @Endpoint(Endpoints.eventList)
  list(@Query() query: EventListQuery, @CurrentCaller() caller: Caller, @Page() page: PageRequest, @Origin() origin: RequestOrigin) {
    return this.bus.forward(EventMessages.list, { ...query, caller, page }, origin);
  }

  @Endpoint(Endpoints.eventSearch)
  search(@Query() query: EventSearchQuery, @CurrentCaller() caller: Caller, @Page() page: PageRequest, @Origin() origin: RequestOrigin) {
    return this.bus.forward(EventMessages.search, { ...query, caller, page }, origin);
  }

  @Endpoint(Endpoints.eventsCreatedBy)
  createdBy(@Param('id') userId: string, @CurrentCaller() caller: Caller, @Page() page: PageRequest, @Origin() origin: RequestOrigin) {
    return this.bus.forward(EventMessages.createdBy, { userId, caller, page }, origin);
  }

  @Endpoint(Endpoints.eventsParticipatedBy)
  participatedBy(
    @Param('id') userId: string, @Query() query: UserEventsQuery, @CurrentCaller() caller: Caller, @Page() page: PageRequest, @Origin() origin: RequestOrigin,
  ) {
    return this.bus.forward(EventMessages.participatedBy, { userId, status: query.status, caller, page }, origin);
  }

  @Endpoint(Endpoints.eventsWishedBy)
  wishedBy(
    @Param('id') userId: string, @Query() query: UserEventsQuery, @CurrentCaller() caller: Caller, @Page() page: PageRequest, @Origin() origin: RequestOrigin,
  ) {
    return this.bus.forward(EventMessages.wishedBy, { userId, status: query.status, caller, page }, origin);
  }

  @Endpoint(Endpoints.eventGet)
  get(@Param('id') id: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(EventMessages.get, { id, caller }, origin);
  }

  @Endpoint(Endpoints.eventParticipants)
  participants(@Param('id') id: string, @CurrentCaller() caller: Caller, @Page() page: PageRequest, @Origin() origin: RequestOrigin) {
    return this.bus.forward(EventMessages.participants, { id, caller, page }, origin);
  }

  @Endpoint(Endpoints.eventWishers)
  wishers(@Param('id') id: string, @CurrentCaller() caller: Caller, @Page() page: PageRequest, @Origin() origin: RequestOrigin) {
    return this.bus.forward(EventMessages.wishers, { id, caller, page }, origin);
  }

  /** `participate_date` from the body (form, multipart or JSON), or from the query string. */
  @Endpoint(Endpoints.eventJoin)
  async join(@Param('id') id: string, @Req() request: FastifyRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    const { fields } = await readRequestBody(request);
    const query = (request.query ?? {}) as Record<string, unknown>;
    const raw = 'participate_date' in fields ? fields.participate_date : query.participate_date;
    const body = await validateInput(Endpoints.eventJoin.body.dto, { participate_date: raw });
    return this.bus.forward(EventMessages.join, { id, caller, participate_date: body.participate_date }, origin);
  }

  @Endpoint(Endpoints.eventLeave)
  leave(@Param('id') id: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(EventMessages.leave, { id, caller }, origin);
  }

  @Endpoint(Endpoints.eventWish)
  wish(@Param('id') id: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(EventMessages.wish, { id, caller }, origin);
  }

  @Endpoint(Endpoints.eventUnwish)
  unwish(@Param('id') id: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(EventMessages.unwish, { id, caller }, origin);
  }
}
