import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A comment on a note; `_id` is its numeric id (digits). */
@Schema({ collection: 'note_comments', versionKey: false })
export class NoteCommentDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) note_id!: string;
  @Prop({ required: true }) author_id!: string;
  @Prop({ required: true }) content!: string;
  @Prop({ type: Date, required: true }) created!: Date;
}

export const NoteCommentSchema = SchemaFactory.createForClass(NoteCommentDocument);
// GET /v2/note/:id/comments, oldest first; also removal with the note
NoteCommentSchema.index({ note_id: 1, created: 1, _id: 1 });
