import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { NotePictureLayout, NotePictureLayouts, NotePrivacies, NotePrivacy, PictureFormat, PictureFormats } from '@plaza/contracts';

/** One uploaded picture of a note: where its bytes are and how references to it show. */
@Schema({ _id: false, versionKey: false })
export class NotePhoto {
  /** The picture number the client gave it, unique within the note. */
  @Prop({ required: true }) number!: number;
  /** Object-store key; empty for a picture imported by its address (`url`). */
  @Prop({ type: String, default: '' }) key!: string;
  @Prop({ type: String, required: true, enum: PictureFormats }) format!: PictureFormat;
  @Prop({ required: true }) width!: number;
  @Prop({ required: true }) height!: number;
  @Prop({ required: true }) size!: number;
  /** Layout and caption used when content refers to the picture with `<图片p_N>`. */
  @Prop({ type: String, required: true, enum: NotePictureLayouts }) layout!: NotePictureLayout;
  @Prop({ default: '' }) caption!: string;
  /** A picture imported by its address (docs/api/note.md, "Import"): shown at it, no bytes stored (`key` empty). */
  @Prop() url?: string;
}

export const NotePhotoSchema = SchemaFactory.createForClass(NotePhoto);

/**
 * A note; `_id` is its numeric id (digits), so reads by id are pushed down on FerretDB.
 * `content` is the stored markup (see markup/note-markup.ts). The counters are counts of
 * note_likes and note_comments, recounted under the note's lock (NoteCounterWriter).
 */
@Schema({ collection: 'notes', versionKey: false })
export class NoteDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) author_id!: string;
  @Prop({ required: true }) title!: string;
  @Prop({ required: true }) content!: string;
  @Prop({ type: String, required: true, enum: NotePrivacies }) privacy!: NotePrivacy;
  @Prop({ required: true }) can_reply!: boolean;
  @Prop({ type: [NotePhotoSchema], default: [] }) photos!: NotePhoto[];
  @Prop({ type: Date, required: true }) publish_time!: Date;
  @Prop({ type: Date, required: true }) update_time!: Date;
  @Prop({ default: 0 }) liked_count!: number;
  @Prop({ default: 0 }) comments_count!: number;
  /** Raised by every counter write: on MongoDB a recount is a compare-and-swap on it (NotesRepository.setCounters). */
  @Prop() counts_v?: number;
}

export const NoteSchema = SchemaFactory.createForClass(NoteDocument);
// GET /v2/note/user_created/:id: a user's notes of the privacies the viewer may see, newest first
// a user's notes, newest first: `_id` breaks ties in the index too, so MongoDB never sorts in memory
NoteSchema.index({ author_id: 1, privacy: 1, publish_time: -1, _id: -1 });
