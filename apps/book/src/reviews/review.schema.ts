import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A book review; `_id` is its numeric id. */
@Schema({ collection: 'reviews', versionKey: false })
export class ReviewDocument {
  @Prop({ type: Number, required: true }) _id!: number;
  @Prop({ required: true }) book_id!: string;
  @Prop({ required: true }) author_id!: string;
  @Prop({ required: true }) title!: string;
  @Prop({ required: true }) content!: string;
  /** 1 to 5; absent when unrated. */
  @Prop({ type: Number }) rating?: number;
  @Prop({ default: 0 }) votes!: number;
  @Prop({ default: 0 }) useless!: number;
  @Prop({ default: 0 }) comments!: number;
  @Prop({ type: Date, required: true }) published!: Date;
  @Prop({ type: Date, required: true }) updated!: Date;
}

export const ReviewSchema = SchemaFactory.createForClass(ReviewDocument);
ReviewSchema.index({ book_id: 1, published: -1 });
ReviewSchema.index({ author_id: 1, published: -1 });
