import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { EventMessages, LocListRequest, LocRequest, RESOLVE_LOC, ResolveLocRequest } from '@plaza/contracts';
import { LocsService } from './locs.service';

@Controller()
export class LocsController {
  constructor(private readonly locs: LocsService) {}

  @MessagePattern(EventMessages.getLoc.subject)
  get(@Payload() req: LocRequest) {
    return this.locs.get(req.id);
  }

  @MessagePattern(EventMessages.listLocs.subject)
  list(@Payload() req: LocListRequest) {
    return this.locs.list(req.page);
  }

  /** Asked by the movie service for `in_theaters?city=`. */
  @MessagePattern(RESOLVE_LOC.subject)
  resolve(@Payload() req: ResolveLocRequest) {
    return this.locs.resolve(req.ref);
  }
}
