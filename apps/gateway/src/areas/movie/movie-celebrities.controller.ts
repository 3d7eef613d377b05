import { Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, MovieMessages, PageRequest } from '@plaza/contracts';
import { ServiceBus, RequestOrigin } from '@plaza/platform';
import { Endpoint } from '../../endpoints/endpoint.decorator';
import { Endpoints } from '../../endpoints/endpoint-table';
import { CurrentCaller, Page, Origin } from '../../http/request-context';

/** Celebrities, their works (with roles) and photos. */
@ApiTags('movie')
@Controller()
export class MovieCelebritiesController {
  constructor(private readonly bus: ServiceBus) {}

  @Endpoint(Endpoints.movieCelebrity)
  celebrity(@Param('id') id: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(MovieMessages.getCelebrity, { id, caller }, origin);
  }

  @Endpoint(Endpoints.movieCelebrityWorks)
  works(@Param('id') id: string, @Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(MovieMessages.celebrityWorks, { id, ...page, caller }, origin);
  }

  @Endpoint(Endpoints.movieCelebrityPhotos)
  photos(@Param('id') id: string, @Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(MovieMessages.celebrityPhotos, { id, ...page, caller }, origin);
  }
}
