import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AccountDeleteRequest, AccountDeleteResponse, AccountMessages, ApiError } from '@plaza/contracts';
import { AccountDeletion } from './account-deletion';

/** The signed-in user's own account (docs/api/account.md). */
@Controller()
export class AccountController {
  constructor(private readonly deletion: AccountDeletion) {}

  @MessagePattern(AccountMessages.delete.subject)
  delete(@Payload() req: AccountDeleteRequest): Promise<AccountDeleteResponse> {
    if (!req.caller.userId) throw new ApiError('need_permission', 'a logged-in user is required');
    return this.deletion.delete(req.caller.userId, req.password);
  }
}
