import { Controller, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  AnnotationReadQuery, BOOK_PICTURE_AREA, BookAnnotationsQuery, BookMessages, Caller, checkAnnotationPlacement, PageRequest,
} from '@plaza/contracts';
import { ServiceBus, RequestOrigin } from '@plaza/platform';
import type { FastifyRequest } from 'fastify';
import { Endpoint } from '../../endpoints/endpoint.decorator';
import { Endpoints } from '../../endpoints/endpoint-table';
import { CurrentCaller, Page, Origin } from '../../http/request-context';
import { PictureUploads } from '../../pictures/picture-uploads';
import { readBookWrite } from './request-body';

/**
 * Reading annotations. Writes may carry pictures: they are checked and stored here (never sent
 * over NATS) after the text fields passed validation, and removed again if the service refuses.
 */
@ApiTags('book')
@Controller()
export class BookAnnotationsController {
  constructor(
    private readonly bus: ServiceBus,
    @Inject(PictureUploads) private readonly uploads: PictureUploads,
  ) {}

  @Endpoint(Endpoints.annotationGet)
  get(@Param('id') id: string, @Query() query: AnnotationReadQuery, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(BookMessages.getAnnotation, { id, query, caller }, origin);
  }

  @Endpoint(Endpoints.bookAnnotations)
  listByBook(
    @Param('id') bookId: string,
    @Query() query: BookAnnotationsQuery,
    @Page() page: PageRequest,
    @CurrentCaller() caller: Caller,
    @Origin() origin: RequestOrigin,
  ) {
    return this.bus.forward(BookMessages.bookAnnotations, { bookId, query, page, caller }, origin);
  }

  @Endpoint(Endpoints.userAnnotations)
  listByUser(
    @Param('name') user: string,
    @Query() query: AnnotationReadQuery,
    @Page() page: PageRequest,
    @CurrentCaller() caller: Caller,
    @Origin() origin: RequestOrigin,
  ) {
    return this.bus.forward(BookMessages.userAnnotations, { user, query, page, caller }, origin);
  }

  @Endpoint(Endpoints.annotationCreate)
  async create(@Param('id') bookId: string, @Req() request: FastifyRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    const { input, pictures } = await readBookWrite(request, Endpoints.annotationCreate.body.dto);
    checkAnnotationPlacement(input);
    return this.uploads.withStaged(BOOK_PICTURE_AREA, pictures, (refs) =>
      this.bus.request(BookMessages.createAnnotation, { bookId, input, pictures: refs, caller }, origin),
    );
  }

  @Endpoint(Endpoints.annotationUpdate)
  async update(@Param('id') id: string, @Req() request: FastifyRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    const { input, pictures } = await readBookWrite(request, Endpoints.annotationUpdate.body.dto);
    checkAnnotationPlacement(input);
    return this.uploads.withStaged(BOOK_PICTURE_AREA, pictures, (refs) =>
      this.bus.request(BookMessages.updateAnnotation, { id, input, pictures: refs, caller }, origin),
    );
  }

  @Endpoint(Endpoints.annotationDelete)
  remove(@Param('id') id: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin) {
    return this.bus.forward(BookMessages.deleteAnnotation, { id, caller }, origin);
  }
}
