import { Controller, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  Caller, Note, NoteFormatQuery, NoteList, NoteMessages, PageRequest, validateInput,
} from '@plaza/contracts';
import { ServiceBus, RequestOrigin, Forwarded } from '@plaza/platform';
import type { FastifyRequest } from 'fastify';
import { Endpoint } from '../../endpoints/endpoint.decorator';
import { Endpoints } from '../../endpoints/endpoint-table';
import { CurrentCaller, Page, Origin } from '../../http/request-context';
import { readRequestBody } from '../../pictures/multipart-body';
import { PictureUploads } from '../../pictures/picture-uploads';
import { readNotePictureParts } from './note-pictures.form';

/**
 * Notes, their pictures, likes and lists (docs/api/note.md, "Endpoints"). Bodies may be JSON, form or multipart;
 * text fields are validated here and again by the note service, pictures are checked and stored
 * before the write is sent and removed again if the service refuses it.
 */
@ApiTags('notes')
@Controller()
export class NotesController {
  constructor(
    private readonly bus: ServiceBus,
    @Inject(PictureUploads) private readonly uploads: PictureUploads,
  ) {}

  @Endpoint(Endpoints.noteCreate)
  async create(@Req() request: FastifyRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin): Promise<Note> {
    const body = await readRequestBody(request);
    const note = await validateInput(Endpoints.noteCreate.body.dto, body.fields);
    const parts = readNotePictureParts(body);
    return this.uploads.withStaged('note', parts.files, (pictures) =>
      this.bus.request(NoteMessages.create, { caller, note, uploads: { pictures, texts: parts.texts } }, origin),
    );
  }

  @Endpoint(Endpoints.noteGet)
  get(@Param('id') id: string, @Query() query: NoteFormatQuery, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin): Promise<Forwarded<Note>> {
    return this.bus.forward(NoteMessages.get, { caller, id, format: query.format }, origin);
  }

  @Endpoint(Endpoints.noteUpdate)
  async update(@Param('id') id: string, @Req() request: FastifyRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin): Promise<Note> {
    const body = await readRequestBody(request);
    const note = await validateInput(Endpoints.noteUpdate.body.dto, body.fields);
    const parts = readNotePictureParts(body);
    return this.uploads.withStaged('note', parts.files, (pictures) =>
      this.bus.request(NoteMessages.update, { caller, id, note, uploads: { pictures, texts: parts.texts } }, origin),
    );
  }

  @Endpoint(Endpoints.noteAddPictures)
  async addPictures(@Param('id') id: string, @Req() request: FastifyRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin): Promise<Note> {
    const body = await readRequestBody(request);
    const input = await validateInput(Endpoints.noteAddPictures.body.dto, body.fields);
    const parts = readNotePictureParts(body);
    return this.uploads.withStaged('note', parts.files, (pictures) =>
      this.bus.request(NoteMessages.addPictures, { caller, id, input, uploads: { pictures, texts: parts.texts } }, origin),
    );
  }

  @Endpoint(Endpoints.noteDelete)
  delete(@Param('id') id: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin): Promise<Forwarded<Record<string, never>>> {
    return this.bus.forward(NoteMessages.delete, { caller, id }, origin);
  }

  @Endpoint(Endpoints.noteLike)
  like(@Param('id') id: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin): Promise<Forwarded<Note>> {
    return this.bus.forward(NoteMessages.like, { caller, id }, origin);
  }

  @Endpoint(Endpoints.noteUnlike)
  unlike(@Param('id') id: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin): Promise<Forwarded<Note>> {
    return this.bus.forward(NoteMessages.unlike, { caller, id }, origin);
  }

  @Endpoint(Endpoints.notesCreatedBy)
  createdBy(
    @Param('id') userId: string, @Query() query: NoteFormatQuery, @Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin,
  ): Promise<Forwarded<NoteList>> {
    return this.bus.forward(NoteMessages.listCreated, { caller, userId, format: query.format, page }, origin);
  }

  @Endpoint(Endpoints.notesLikedBy)
  likedBy(
    @Param('id') userId: string, @Query() query: NoteFormatQuery, @Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin,
  ): Promise<Forwarded<NoteList>> {
    return this.bus.forward(NoteMessages.listLiked, { caller, userId, format: query.format, page }, origin);
  }
}
