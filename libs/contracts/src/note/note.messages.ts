import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsOptional, Matches, ValidateNested } from 'class-validator';
import { PageRequest, ListEnvelope } from '../common/paging';
import { SimpleUser } from '../common/user';
import { Caller } from '../messaging/caller';
import { defineMessage } from '../messaging/define-message';
import { NoteCommentInput, NoteFormat, NoteFormats, NoteInput, NotePictureUploads, NotePicturesInput, NotePrivacy } from './note.dto';
import { PATH_ID } from '../common/path-params';

/** A note as the API shows it (docs/api/note.md, "The Note"; its author as a Simple User). */
export interface Note {
  /** Digits. */
  id: string;
  alt: string;
  title: string;
  /** The abstract: first 100 characters of the text without markup, `...` when cut. */
  summary: string;
  /** In the format asked for (text by default). */
  content: string;
  privacy: NotePrivacy;
  can_reply: boolean;
  /** Picture number → address (signed and expiring unless the note is public). */
  photos: Record<string, string>;
  update_time: string;
  publish_time: string;
  comments_count: number;
  liked_count: number;
  /** There are no recommendations: always 0. */
  recs_count: number;
  author: SimpleUser;
}

/** A comment on a note (docs/api/note.md). */
export interface NoteComment {
  id: string;
  created: string;
  content: string;
  author: SimpleUser;
}

export type NoteList = ListEnvelope<'notes', Note>;
export type NoteCommentList = ListEnvelope<'comments', NoteComment>;

/** Every note message names its caller: visibility and ownership depend on who asks. */
class CallerRequest {
  @IsDefined() @ValidateNested() @Type(() => Caller) caller!: Caller;
}

export class NoteRequest extends CallerRequest {
  @Matches(PATH_ID) id!: string;
}

export class GetNoteRequest extends NoteRequest {
  @IsOptional() @IsIn(NoteFormats) format?: NoteFormat;
}

/** A public note for anyone, no caller (the web page of its `alt`, docs/api/web.md): 403/1000 unless public. */
export class GetPublicNoteRequest {
  @Matches(PATH_ID) id!: string;
  @IsOptional() @IsIn(NoteFormats) format?: NoteFormat;
}

export class CreateNoteRequest extends CallerRequest {
  @IsDefined() @ValidateNested() @Type(() => NoteInput) note!: NoteInput;
  @IsDefined() @ValidateNested() @Type(() => NotePictureUploads) uploads!: NotePictureUploads;
}

export class UpdateNoteRequest extends CreateNoteRequest {
  @Matches(PATH_ID) id!: string;
}

export class AddNotePicturesRequest extends NoteRequest {
  @IsDefined() @ValidateNested() @Type(() => NotePicturesInput) input!: NotePicturesInput;
  @IsDefined() @ValidateNested() @Type(() => NotePictureUploads) uploads!: NotePictureUploads;
}

export class ListUserNotesRequest extends CallerRequest {
  @Matches(PATH_ID) userId!: string;
  @IsOptional() @IsIn(NoteFormats) format?: NoteFormat;
  @IsDefined() @ValidateNested() @Type(() => PageRequest) page!: PageRequest;
}

export class NoteCommentsRequest extends NoteRequest {
  @IsDefined() @ValidateNested() @Type(() => PageRequest) page!: PageRequest;
}

export class CreateNoteCommentRequest extends NoteRequest {
  @IsDefined() @ValidateNested() @Type(() => NoteCommentInput) comment!: NoteCommentInput;
}

export class NoteCommentRequest extends NoteRequest {
  @Matches(PATH_ID) commentId!: string;
}

/** Subjects `note.v1.<resource>.<action>`; the note service answers all of them. */
export const NoteMessages = {
  create: defineMessage<CreateNoteRequest, Note>('note.v1.note.create', CreateNoteRequest),
  get: defineMessage<GetNoteRequest, Note>('note.v1.note.get', GetNoteRequest),
  update: defineMessage<UpdateNoteRequest, Note>('note.v1.note.update', UpdateNoteRequest),
  addPictures: defineMessage<AddNotePicturesRequest, Note>('note.v1.note.add-pictures', AddNotePicturesRequest),
  delete: defineMessage<NoteRequest, Record<string, never>>('note.v1.note.delete', NoteRequest),
  listCreated: defineMessage<ListUserNotesRequest, NoteList>('note.v1.note.list-created', ListUserNotesRequest),
  listLiked: defineMessage<ListUserNotesRequest, NoteList>('note.v1.note.list-liked', ListUserNotesRequest),
  like: defineMessage<NoteRequest, Note>('note.v1.like.add', NoteRequest),
  unlike: defineMessage<NoteRequest, Note>('note.v1.like.remove', NoteRequest),
  comments: defineMessage<NoteCommentsRequest, NoteCommentList>('note.v1.comment.list', NoteCommentsRequest),
  createComment: defineMessage<CreateNoteCommentRequest, NoteComment>('note.v1.comment.create', CreateNoteCommentRequest),
  getComment: defineMessage<NoteCommentRequest, NoteComment>('note.v1.comment.get', NoteCommentRequest),
  deleteComment: defineMessage<NoteCommentRequest, Record<string, never>>('note.v1.comment.delete', NoteCommentRequest),
  getPublic: defineMessage<GetPublicNoteRequest, Note>('note.v1.note.get-public', GetPublicNoteRequest),
} as const;
