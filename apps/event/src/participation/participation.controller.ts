import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { EventMessages, EventPageRequest, EventRequest, ParticipateRequest } from '@plaza/contracts';
import { ParticipationService } from './participation.service';

@Controller()
export class ParticipationController {
  constructor(private readonly participation: ParticipationService) {}

  @MessagePattern(EventMessages.participants.subject)
  participants(@Payload() req: EventPageRequest) {
    return this.participation.participantList(req);
  }

  @MessagePattern(EventMessages.wishers.subject)
  wishers(@Payload() req: EventPageRequest) {
    return this.participation.wisherList(req);
  }

  @MessagePattern(EventMessages.join.subject)
  join(@Payload() req: ParticipateRequest) {
    return this.participation.join(req);
  }

  @MessagePattern(EventMessages.leave.subject)
  leave(@Payload() req: EventRequest) {
    return this.participation.leave(req);
  }

  @MessagePattern(EventMessages.wish.subject)
  wish(@Payload() req: EventRequest) {
    return this.participation.wish(req);
  }

  @MessagePattern(EventMessages.unwish.subject)
  unwish(@Payload() req: EventRequest) {
    return this.participation.unwish(req);
  }
}
