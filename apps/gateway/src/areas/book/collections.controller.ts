import { Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { BookMessages, Caller, CollectionLookupQuery, PageRequest, UserCollectionsQuery } from '@plaza/contracts';
import { ServiceBus, RequestOrigin } from '@plaza/platform';
import type { FastifyRequest } from 'fastify';
import { Endpoint } from '../../endpoints/endpoint.decorator';
import { Endpoints } from '../../endpoints/endpoint-table';
import { CurrentCaller, Page, Origin } from '../../http/request-context';
import { readBookWrite } from './request-body';

/** Users' collection entries and the tags they gave (docs/api/book.md, "Collections"). */
@ApiTags('book')
@Controller()
export class BookCollectionsController {
  constructor(private readonly bus: ServiceBus) {}

  @Endpoint(Endpoints.bookCollectionGet)
  get(@Param('id') bookId: string, @Query() query: CollectionLookupQuery, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(BookMessages.getCollection, { bookId, query, caller }, origin);
  }

  @Endpoint(Endpoints.userCollections)
  listByUser(
    @Param('name') user: string,
    @Query() query: UserCollectionsQuery,
    @Page() page: PageRequest,
    @CurrentCaller() caller: Caller,
    @Origin() origin: RequestOrigin,
  ) {
    return this.bus.forward(BookMessages.userCollections, { user, query, page, caller }, origin);
  }

  @Endpoint(Endpoints.userBookTags)
  userTags(@Param('name') user: string, @Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(BookMessages.userTags, { user, page, caller }, origin);
  }

  /** Deprecated alias of /v2/book/user/:name/tags (docs/api/README.md, "Versions"). */
  @Endpoint(Endpoints.userTagsDeprecated)
  userTagsDeprecated(@Param('id') user: string, @Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(BookMessages.userTags, { user, page, caller }, origin);
  }

  @Endpoint(Endpoints.collectionCreate)
  async create(@Param('id') bookId: string, @Req() request: FastifyRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    const { input } = await readBookWrite(request, Endpoints.collectionCreate.body.dto);
    return this.bus.forward(BookMessages.createCollection, { bookId, input, caller }, origin);
  }

  @Endpoint(Endpoints.collectionUpdate)
  async update(@Param('id') bookId: string, @Req() request: FastifyRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    const { input } = await readBookWrite(request, Endpoints.collectionUpdate.body.dto);
    return this.bus.forward(BookMessages.updateCollection, { bookId, input, caller }, origin);
  }

  @Endpoint(Endpoints.collectionDelete)
  remove(@Param('id') bookId: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(BookMessages.deleteCollection, { bookId, caller }, origin);
  }
}
