import { Controller, Inject, OnApplicationBootstrap } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { EventListRequest, EventMessages, EventRequest, EventSearchRequest, UserCreatedEventsRequest, UserEventsRequest } from '@plaza/contracts';
import { LOGGER, Logger } from '@plaza/platform';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

@Controller()
export class EventsController implements OnApplicationBootstrap {
  constructor(
    private readonly events: EventsService,
    private readonly repository: EventsRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Events stored before event search existed are found once their entries are written: in the background, once. */
  onApplicationBootstrap(): void {
    this.repository.indexMissingSearchEntries().then(
      (n) => n > 0 && this.logger.info({ events: n }, 'event search entries written'),
      (err: unknown) => this.logger.warn({ err: (err as Error).message }, 'event search entries not written; next start tries again'),
    );
  }

  @MessagePattern(EventMessages.search.subject)
  search(@Payload() req: EventSearchRequest) {
    return this.events.search(req);
  }

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
