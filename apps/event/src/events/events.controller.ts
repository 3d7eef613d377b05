import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { EventListRequest, EventMessages, EventRequest, UserCreatedEventsRequest, UserEventsRequest } from '@plaza/contracts';
import { EventsService } from './events.service';

@Controller()
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @MessagePattern(EventMessages.get.subject)
  get(@Payload() req: EventRequest) {
    return this.events.get(req.id, req.caller);
  }

  @MessagePattern(EventMessages.list.subject)
  list(@Payload() req: EventListRequest) {
    return this.events.list(req);
  }

  @MessagePattern(EventMessages.createdBy.subject)
  createdBy(@Payload() req: UserCreatedEventsRequest) {
    return this.events.createdBy(req);
  }

  @MessagePattern(EventMessages.participatedBy.subject)
  participatedBy(@Payload() req: UserEventsRequest) {
    return this.events.participatedBy(req);
  }

  @MessagePattern(EventMessages.wishedBy.subject)
  wishedBy(@Payload() req: UserEventsRequest) {
    return this.events.wishedBy(req);
  }
}
