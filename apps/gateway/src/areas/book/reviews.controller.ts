import { Controller, Param, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { BookMessages, Caller } from '@plaza/contracts';
import { ServiceBus, RequestOrigin } from '@plaza/platform';
import type { FastifyRequest } from 'fastify';
import { Endpoint } from '../../endpoints/endpoint.decorator';
import { Endpoints } from '../../endpoints/endpoint-table';
import { CurrentCaller, Origin } from '../../http/request-context';
import { readBookWrite } from './request-body';

/** Book reviews (scope service_basic_common). */
@ApiTags('book')
@Controller()
export class BookReviewsController {
  constructor(private readonly bus: ServiceBus) {}

  @Endpoint(Endpoints.reviewCreate)
  async create(@Req() request: FastifyRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    const { input } = await readBookWrite(request, Endpoints.reviewCreate.body.dto);
    return this.bus.forward(BookMessages.createReview, { input, caller }, origin);
  }

  @Endpoint(Endpoints.reviewUpdate)
  async update(@Param('id') id: string, @Req() request: FastifyRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    const { input } = await readBookWrite(request, Endpoints.reviewUpdate.body.dto);
    return this.bus.forward(BookMessages.updateReview, { id, input, caller }, origin);
  }

  /** 200 with `{}` (docs/api/book.md). */
  @Endpoint(Endpoints.reviewDelete)
  remove(@Param('id') id: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(BookMessages.deleteReview, { id, caller }, origin);
  }
}
