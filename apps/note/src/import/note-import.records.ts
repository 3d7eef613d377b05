import { IMPORTED_CONTENT_ID, MAX_NOTE_COMMENT_LENGTH, MAX_NOTE_CONTENT_LENGTH, MAX_NOTE_TITLE_LENGTH, NotePrivacies, NotePrivacy, ToBoolean, VISIBLE_TEXT } from '@plaza/contracts';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateIf, ValidateNested } from 'class-validator';

/**
 * Import records of the note kinds (docs/api/import.md, docs/api/note.md "Import"): a Note, a
 * Comment and a like as the API shows them, with the ids kept. Ids are digits, at most 15 of them,
 * so the id sequences can be moved past them exactly.
 */
export const RECORD_ID = IMPORTED_CONTENT_ID;
const idMessage = { message: '$property must be a string of at most 15 digits' };
const USER_ID = /^[0-9]{1,20}$/;

/** A user named by `id` or `uid` (the Simple User of the API; the rest of it is identity's). */
export class UserRefInput {
  @ValidateIf((o: UserRefInput) => o.uid === undefined) @IsDefined({ message: 'author needs an id or a uid' }) @Matches(USER_ID) id?: string;
  @IsOptional() @Matches(/^[A-Za-z0-9_.-]{1,64}$/) uid?: string;
}

abstract class Authored {
  @ValidateIf((o: Authored) => o.author === undefined) @IsDefined({ message: 'author or author_id is required' }) @Matches(USER_ID) author_id?: string;
  @ValidateIf((o: Authored) => o.author_id === undefined) @IsDefined({ message: 'author or author_id is required' }) @ValidateNested() @Type(() => UserRefInput) author?: UserRefInput;
}

/** `note`: content in the markup the API takes (docs/api/note.md "Content markup"); `photos` maps picture numbers to addresses. */
export class NoteImportRecord extends Authored {
  @Matches(RECORD_ID, idMessage) id!: string;
  @IsString() @Matches(VISIBLE_TEXT, { message: 'title is blank' }) @MaxLength(MAX_NOTE_TITLE_LENGTH) title!: string;
  @IsString() @Matches(VISIBLE_TEXT, { message: 'content is blank' }) @MaxLength(MAX_NOTE_CONTENT_LENGTH) content!: string;
  @IsOptional() @IsIn(NotePrivacies) privacy?: NotePrivacy;
  @IsOptional() @ToBoolean() @IsBoolean() can_reply?: boolean;
  /** `yyyy-MM-dd HH:mm:ss` in SERVICE_TIMEZONE, or ISO 8601. */
  @IsString() @MaxLength(40) publish_time!: string;
  @IsOptional() @IsString() @MaxLength(40) update_time?: string;
  /** `{"1": "https://…"}`: each picture by its address (checked by the importer); absent: none. */
  @IsOptional() @IsObject() photos?: Record<string, unknown>;
}

/** `note_comment`: a Comment of a loaded note. */
export class NoteCommentImportRecord extends Authored {
  @Matches(RECORD_ID, idMessage) id!: string;
  @Matches(RECORD_ID, idMessage) note_id!: string;
  @IsString() @Matches(VISIBLE_TEXT, { message: 'content is blank' }) @MaxLength(MAX_NOTE_COMMENT_LENGTH) content!: string;
  @IsString() @MaxLength(40) created!: string;
}

/** `note_like`: a user's like of a loaded note, keyed by the pair. */
export class NoteLikeImportRecord {
  @Matches(RECORD_ID, idMessage) note_id!: string;
  @Matches(USER_ID) user_id!: string;
  @IsOptional() @IsString() @MaxLength(40) created?: string;
}
