import { Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { EventMessages, PageRequest } from '@plaza/contracts';
import { ServiceBus, RequestOrigin } from '@plaza/platform';
import { Endpoint } from '../../endpoints/endpoint.decorator';
import { Endpoints } from '../../endpoints/endpoint-table';
import { Page, Origin } from '../../http/request-context';

/** Cities (loc). Answers are cached by the gateway (endpoint table) and dropped after an import. */
@ApiTags('event')
@Controller()
export class LocController {
  constructor(private readonly bus: ServiceBus) {}

  @Endpoint(Endpoints.locList)
  list(@Page() page: PageRequest, @Origin() origin: RequestOrigin) {
    return this.bus.forward(EventMessages.listLocs, { page }, origin);
  }

  @Endpoint(Endpoints.locGet)
  get(@Param('id') id: string, @Origin() origin: RequestOrigin) {
    return this.bus.forward(EventMessages.getLoc, { id }, origin);
  }
}
