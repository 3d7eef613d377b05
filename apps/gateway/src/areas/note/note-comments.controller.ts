import { Controller, Param, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, NoteComment, NoteCommentList, NoteMessages, PageRequest } from '@plaza/contracts';
import { ServiceBus, RequestOrigin, Forwarded } from '@plaza/platform';
import type { FastifyRequest } from 'fastify';
import { Endpoint } from '../../endpoints/endpoint.decorator';
import { Endpoints } from '../../endpoints/endpoint-table';
import { CurrentCaller, Page, Origin } from '../../http/request-context';
import { readTextBody } from '../../pictures/multipart-body';

/** Comments on notes (docs/api/note.md). */
@ApiTags('notes')
@Controller()
export class NoteCommentsController {
  constructor(private readonly bus: ServiceBus) {}

  @Endpoint(Endpoints.noteComments)
  list(@Param('id') id: string, @Page() page: PageRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin): Promise<Forwarded<NoteCommentList>> {
    return this.bus.forward(NoteMessages.comments, { caller, id, page }, origin);
  }

  @Endpoint(Endpoints.noteCommentCreate)
  async create(@Param('id') id: string, @Req() request: FastifyRequest, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin): Promise<Forwarded<NoteComment>> {
    const comment = await readTextBody(request, Endpoints.noteCommentCreate.body.dto);
    return this.bus.forward(NoteMessages.createComment, { caller, id, comment }, origin);
  }

  @Endpoint(Endpoints.noteCommentGet)
  get(@Param('id') id: string, @Param('cid') commentId: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin): Promise<Forwarded<NoteComment>> {
    return this.bus.forward(NoteMessages.getComment, { caller, id, commentId }, origin);
  }

  @Endpoint(Endpoints.noteCommentDelete)
  async delete(@Param('id') id: string, @Param('cid') commentId: string, @CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin): Promise<void> {
    await this.bus.request(NoteMessages.deleteComment, { caller, id, commentId }, origin);
  }
}
