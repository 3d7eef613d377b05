import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { MovieComment } from '@plaza/contracts';

/** A short comment; `comment.content` is kept as loaded and cut to 140 characters on output. */
@Schema({ collection: 'comments', versionKey: false })
export class CommentDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ type: String, required: true }) subject_id!: string;
  @Prop({ type: Date, required: true }) created!: Date;
  @Prop({ type: Object, required: true }) comment!: MovieComment;
}

export const CommentSchema = SchemaFactory.createForClass(CommentDocument);
CommentSchema.index({ subject_id: 1 });
