import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, InTheatersQuery, MovieMessages, PageRequest } from '@plaza/contracts';
import { ServiceBus, RequestOrigin } from '@plaza/platform';
import { Endpoint } from '../../endpoints/endpoint.decorator';
import { Endpoints } from '../../endpoints/endpoint-table';
import { CurrentCaller, Page, Origin } from '../../http/request-context';

/** The ranked lists. us_box, weekly and new_movies are not paged: they are answered whole. */
@ApiTags('movie')
@Controller()
export class MovieListsController {
  constructor(private readonly bus: ServiceBus) {}

  @Endpoint(Endpoints.movieTop250)
  top250(@Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(MovieMessages.getList, { name: 'top250', ...page, caller }, origin);
  }

  @Endpoint(Endpoints.movieUsBox)
  usBox(@CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(MovieMessages.getList, { name: 'us_box', caller }, origin);
  }

  @Endpoint(Endpoints.movieWeekly)
  weekly(@CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(MovieMessages.getList, { name: 'weekly', caller }, origin);
  }

  @Endpoint(Endpoints.movieNew)
  newMovies(@CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(MovieMessages.getList, { name: 'new_movies', caller }, origin);
  }

  @Endpoint(Endpoints.movieInTheaters)
  inTheaters(@Query() query: InTheatersQuery, @Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(MovieMessages.getList, { name: 'in_theaters', city: query.city, ...page, caller }, origin);
  }

  @Endpoint(Endpoints.movieComingSoon)
  comingSoon(@Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(MovieMessages.getList, { name: 'coming_soon', ...page, caller }, origin);
  }
}
