import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { PictureRef } from '../common/picture';
import { NoBannedWords } from '../validation/banned-words';
import { VISIBLE_TEXT } from '../validation/control-characters';
import { ToBoolean, withError } from '../validation/validation-errors';

export const NotePrivacies = ['public', 'friend', 'private'] as const;
export type NotePrivacy = (typeof NotePrivacies)[number];

/** Values of `format` on note reads (docs/api/note.md, "Content formats"). */
export const NoteFormats = ['text', 'html_full', 'html_short', 'abstract'] as const;
export type NoteFormat = (typeof NoteFormats)[number];

/** Picture layout in `[img=N:L]`: left, centre, right. */
export const NotePictureLayouts = ['L', 'C', 'R'] as const;
export type NotePictureLayout = (typeof NotePictureLayouts)[number];

/** At most 3 pictures per note request (docs/api/note.md, "Pictures"). */
export const MAX_NOTE_PICTURES_PER_REQUEST = 3;
export const MAX_NOTE_TITLE_LENGTH = 200;
export const MAX_NOTE_CONTENT_LENGTH = 100_000;
export const MAX_NOTE_CAPTION_LENGTH = 500;
/** docs/api/note.md: a comment has at most 1000 characters. */
export const MAX_NOTE_COMMENT_LENGTH = 1000;

/** An empty text parameter counts as absent. */
const EmptyAsAbsent = () => Transform(({ value }) => (value === '' ? undefined : value));

/**
 * The text fields of POST /v2/notes and PUT /v2/note/:id (validated at the gateway and again
 * in the service). No title, or a blank one: 400/1012; no content: 400/1002 (docs/api/note.md).
 */
export class NoteInput {
  @IsDefined(withError('title_missing'))
  @IsString(withError('title_missing'))
  @Matches(VISIBLE_TEXT, withError('title_missing'))
  @MaxLength(MAX_NOTE_TITLE_LENGTH)
  @NoBannedWords()
  title!: string;

  @IsDefined()
  @IsString()
  @Matches(VISIBLE_TEXT, withError('missing_args'))
  @MaxLength(MAX_NOTE_CONTENT_LENGTH)
  @NoBannedWords()
  content!: string;

  @IsOptional() @EmptyAsAbsent() @IsIn(NotePrivacies) privacy?: NotePrivacy;

  /** Defaults to true on create and on update (docs/api/note.md). */
  @IsOptional() @ToBoolean() @IsBoolean() can_reply?: boolean;
}

/** The text fields of POST /v2/note/:id (add pictures): content is optional there. */
export class NotePicturesInput {
  @IsOptional()
  @EmptyAsAbsent()
  @IsString()
  @Matches(VISIBLE_TEXT, withError('missing_args'))
  @MaxLength(MAX_NOTE_CONTENT_LENGTH)
  @NoBannedWords()
  content?: string;
}

/** `layout_N` / `desc_N` of a picture (also `layout_p_N` / `desc_p_N`). */
export class NotePictureText {
  @IsInt() @Min(1) @Max(1000) number!: number;
  @IsOptional() @IsIn(NotePictureLayouts) layout?: NotePictureLayout;
  @IsOptional() @IsString() @MaxLength(MAX_NOTE_CAPTION_LENGTH) @NoBannedWords() caption?: string;
}

/** Query of note reads: `format`, default text; anything else is 400/1016. */
export class NoteFormatQuery {
  @IsOptional() @EmptyAsAbsent() @IsIn(NoteFormats) format?: NoteFormat;
}

export class NoteCommentInput {
  @IsDefined()
  @IsString()
  @Matches(VISIBLE_TEXT, withError('missing_args'))
  @MaxLength(MAX_NOTE_COMMENT_LENGTH)
  @NoBannedWords()
  content!: string;
}

/** Pictures of one write: the stored uploads and the layouts and captions sent with them. */
export class NotePictureUploads {
  @IsArray()
  @ArrayMaxSize(MAX_NOTE_PICTURES_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => PictureRef)
  pictures: PictureRef[] = [];

  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => NotePictureText)
  texts: NotePictureText[] = [];
}
