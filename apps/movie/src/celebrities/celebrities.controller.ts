import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CelebrityPageRequest, CelebrityRequest, MovieMessages } from '@plaza/contracts';
import { CelebritiesService } from './celebrities.service';

@Controller()
export class CelebritiesController {
  constructor(private readonly celebrities: CelebritiesService) {}

  @MessagePattern(MovieMessages.getCelebrity.subject)
  get(@Payload() req: CelebrityRequest) {
    return this.celebrities.celebrity(req.id, req.caller.tier);
  }

  @MessagePattern(MovieMessages.celebrityWorks.subject)
  works(@Payload() req: CelebrityPageRequest) {
    return this.celebrities.workPage(req);
  }

  @MessagePattern(MovieMessages.celebrityPhotos.subject)
  photos(@Payload() req: CelebrityPageRequest) {
    return this.celebrities.photoPage(req);
  }
}
