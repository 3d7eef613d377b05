import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CreateNoteCommentRequest, NoteCommentRequest, NoteCommentsRequest, NoteMessages } from '@plaza/contracts';
import { CommentsService } from './comments.service';

@Controller()
export class CommentsController {
  constructor(private readonly comments: CommentsService) {}

  @MessagePattern(NoteMessages.comments.subject)
  list(@Payload() req: NoteCommentsRequest) {
    return this.comments.list(req);
  }

  @MessagePattern(NoteMessages.createComment.subject)
  create(@Payload() req: CreateNoteCommentRequest) {
    return this.comments.create(req);
  }

  @MessagePattern(NoteMessages.getComment.subject)
  get(@Payload() req: NoteCommentRequest) {
    return this.comments.get(req);
  }

  @MessagePattern(NoteMessages.deleteComment.subject)
  delete(@Payload() req: NoteCommentRequest) {
    return this.comments.delete(req);
  }
}
