import { Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { EventMessages, PageRequest } from '@plaza/contracts';
import { ServiceBus } from '@plaza/platform';
import { Endpoint } from '../../endpoints/endpoint.decorator';
import { Endpoints } from '../../endpoints/endpoint-table';
import { Page, RequestId } from '../../http/request-context';

/** Cities (loc). Answers are cached by the gateway (endpoint table) and dropped after an import. */
@ApiTags('event')
@Controller()
export class LocController {
  constructor(private readonly bus: ServiceBus) {}

  @Endpoint(Endpoints.locList)
  list(@Page() page: PageRequest, @RequestId() requestId: string) {
    return this.bus.request(EventMessages.listLocs, { page }, { requestId });
  }

  @Endpoint(Endpoints.locGet)
  get(@Param('id') id: string, @RequestId() requestId: string) {
    return this.bus.request(EventMessages.getLoc, { id }, { requestId });
  }
}
