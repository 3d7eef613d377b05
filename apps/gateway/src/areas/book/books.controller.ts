import { Controller, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { BookMessages, BookSearchQuery, Caller, PageRequest } from '@plaza/contracts';
import { ServiceBus, RequestOrigin } from '@plaza/platform';
import { Endpoint } from '../../endpoints/endpoint.decorator';
import { Endpoints } from '../../endpoints/endpoint-table';
import { CurrentCaller, Page, Origin } from '../../http/request-context';

/** Book records: one book, by ISBN, search, a book's tags, a series' books. */
@ApiTags('book')
@Controller()
export class BookRecordsController {
  constructor(private readonly bus: ServiceBus) {}

  @Endpoint(Endpoints.bookGet)
  get(@Param('id') id: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(BookMessages.getBook, { id, caller }, origin);
  }

  @Endpoint(Endpoints.bookByIsbn)
  byIsbn(@Param('name') isbn: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(BookMessages.getBookByIsbn, { isbn, caller }, origin);
  }

  @Endpoint(Endpoints.bookSearch)
  search(@Query() query: BookSearchQuery, @Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(BookMessages.search, { query, page, caller }, origin);
  }

  @Endpoint(Endpoints.bookTags)
  tags(@Param('id') id: string, @Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(BookMessages.bookTags, { id, page, caller }, origin);
  }

  @Endpoint(Endpoints.seriesBooks)
  seriesBooks(@Param('id') id: string, @Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(BookMessages.seriesBooks, { id, page, caller }, origin);
  }
}
