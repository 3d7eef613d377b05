import { Controller, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, MovieMessages, MovieSearchQuery, PageRequest } from '@plaza/contracts';
import { ServiceBus, RequestOrigin } from '@plaza/platform';
import { Endpoint } from '../../endpoints/endpoint.decorator';
import { Endpoints } from '../../endpoints/endpoint-table';
import { CurrentCaller, Page, Origin } from '../../http/request-context';

/** Subjects, their photos, reviews and short comments, and search. The caller's tier decides the fields (in the service). */
@ApiTags('movie')
@Controller()
export class MovieSubjectsController {
  constructor(private readonly bus: ServiceBus) {}

  @Endpoint(Endpoints.movieSubject)
  subject(@Param('id') id: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(MovieMessages.getSubject, { id, caller }, origin);
  }

  @Endpoint(Endpoints.movieByImdb)
  byImdb(@Param('imdb') imdb: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(MovieMessages.getSubjectByImdb, { imdb, caller }, origin);
  }

  @Endpoint(Endpoints.movieSubjectPhotos)
  photos(@Param('id') id: string, @Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(MovieMessages.subjectPhotos, { id, ...page, caller }, origin);
  }

  @Endpoint(Endpoints.movieSubjectReviews)
  reviews(@Param('id') id: string, @Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(MovieMessages.subjectReviews, { id, ...page, caller }, origin);
  }

  @Endpoint(Endpoints.movieSubjectComments)
  comments(@Param('id') id: string, @Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(MovieMessages.subjectComments, { id, ...page, caller }, origin);
  }

  @Endpoint(Endpoints.movieSearch)
  search(@Query() query: MovieSearchQuery, @Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(MovieMessages.search, { q: query.q, tag: query.tag, ...page, caller }, origin);
  }
}
