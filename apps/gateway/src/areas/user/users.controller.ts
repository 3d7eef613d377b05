import { Controller, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, PageRequest, UserMessages, UserSearchQuery } from '@plaza/contracts';
import { RequestOrigin, ServiceBus } from '@plaza/platform';
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
    return this.bus.request(UserMessages.get, { ref: caller.userId as string }, origin);
  }

  @Endpoint(Endpoints.userGet)
  get(@Param('name') ref: string, @Origin() origin: RequestOrigin) {
    return this.bus.request(UserMessages.get, { ref }, origin);
  }

  @Endpoint(Endpoints.userSearch)
  search(@Query() query: UserSearchQuery, @Page() page: PageRequest, @Origin() origin: RequestOrigin) {
    return this.bus.request(UserMessages.search, { query, page }, origin);
  }
}
