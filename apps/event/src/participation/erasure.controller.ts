import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { UsersDirectory } from '@plaza/platform';
import { erasureMessage, ErasureRequest, ErasureResponse } from '@plaza/contracts';
import { ParticipationService } from './participation.service';

/**
 * `event.v1.erasure.run`, asked by identity when an account is deleted (docs/api/account.md): the
 * user's participations and interest go, the counters with them. The events a user created are
 * catalogue records and stay; their owner then shows as an unknown user.
 */
@Controller()
export class EventErasureController {
  constructor(
    private readonly participation: ParticipationService,
    private readonly directory: UsersDirectory,
  ) {}

  @MessagePattern(erasureMessage('event').subject)
  async erase(@Payload() req: ErasureRequest): Promise<ErasureResponse> {
    // the user is gone from identity: no page shows them from this instance's directory cache any longer
    this.directory.clear();
    return { erased: await this.participation.eraseUser(req.user_id) };
  }
}
