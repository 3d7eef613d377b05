import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AddNotePicturesRequest, CreateNoteRequest, GetNoteRequest, GetPublicNoteRequest, ListUserNotesRequest, NoteMessages, NoteRequest, UpdateNoteRequest } from '@plaza/contracts';
import { LikesService } from '../likes/likes.service';
import { NotesService } from './notes.service';

@Controller()
export class NotesController {
  constructor(
    private readonly notes: NotesService,
    private readonly likes: LikesService,
  ) {}

  @MessagePattern(NoteMessages.create.subject)
  create(@Payload() req: CreateNoteRequest) {
    return this.notes.create(req);
  }

  @MessagePattern(NoteMessages.get.subject)
  get(@Payload() req: GetNoteRequest) {
    return this.notes.get(req);
  }

  @MessagePattern(NoteMessages.getPublic.subject)
  getPublic(@Payload() req: GetPublicNoteRequest) {
    return this.notes.getPublic(req);
  }

  @MessagePattern(NoteMessages.update.subject)
  update(@Payload() req: UpdateNoteRequest) {
    return this.notes.update(req);
  }

  @MessagePattern(NoteMessages.addPictures.subject)
  addPictures(@Payload() req: AddNotePicturesRequest) {
    return this.notes.addPictures(req);
  }

  @MessagePattern(NoteMessages.delete.subject)
  delete(@Payload() req: NoteRequest) {
    return this.notes.delete(req);
  }

  @MessagePattern(NoteMessages.listCreated.subject)
  listCreated(@Payload() req: ListUserNotesRequest) {
    return this.notes.listCreated(req);
  }

  @MessagePattern(NoteMessages.listLiked.subject)
  listLiked(@Payload() req: ListUserNotesRequest) {
    return this.likes.listLiked(req);
  }

  @MessagePattern(NoteMessages.like.subject)
  like(@Payload() req: NoteRequest) {
    return this.likes.like(req);
  }

  @MessagePattern(NoteMessages.unlike.subject)
  unlike(@Payload() req: NoteRequest) {
    return this.likes.unlike(req);
  }
}
