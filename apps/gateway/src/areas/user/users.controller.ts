import { Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AccountMessages, Caller, PageRequest, UserMessages, UserSearchQuery, validateInput } from '@plaza/contracts';
import { RequestOrigin, ServiceBus } from '@plaza/platform';
import type { FastifyRequest } from 'fastify';
import { readRequestBody } from '../../pictures/multipart-body';
import { Endpoint } from '../../endpoints/endpoint.decorator';
import { Endpoints } from '../../endpoints/endpoint-table';
import { CurrentCaller, Origin, Page } from '../../http/request-context';

/** Users (docs/api/user.md): public profiles from identity; `~me` is the signed-in caller's. */
@ApiTags('user')
@Controller()
export class UsersController {
  constructor(private readonly bus: ServiceBus) {}

  @Endpoint(Endpoints.userMe)
  me(@CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    // the guard let only a signed-in user through (access: 'user')
    return this.bus.forward(UserMessages.get, { ref: caller.userId as string }, origin);
  }

  @Endpoint(Endpoints.userGet)
  get(@Param('name') ref: string, @Origin() origin: RequestOrigin) {
    return this.bus.forward(UserMessages.get, { ref }, origin);
  }

  /**
   * Account deletion (docs/api/account.md): the password confirms it; 202 once the account is
   * gone and every token refused, with the areas whose records are erased (`pending` ones follow).
   */
  @Endpoint(Endpoints.accountDelete)
  async delete(@Req() request: FastifyRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    const { fields } = await readRequestBody(request);
    const input = await validateInput(Endpoints.accountDelete.body.dto, fields);
    // erasing several areas' records takes longer than a read
    return this.bus.forward(AccountMessages.delete, { caller, password: input.password, client_ip: request.ip }, { ...origin, timeout: 65_000 });
  }

  @Endpoint(Endpoints.userSearch)
  search(@Query() query: UserSearchQuery, @Page() page: PageRequest, @Origin() origin: RequestOrigin) {
    return this.bus.forward(UserMessages.search, { query, page }, origin);
  }
}
