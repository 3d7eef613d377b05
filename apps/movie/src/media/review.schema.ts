import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { MovieReview } from '@plaza/contracts';

/** A movie review; `review.summary` is kept as loaded and cut to 100 characters on output. */
@Schema({ collection: 'reviews', versionKey: false })
export class ReviewDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ type: String, required: true }) subject_id!: string;
  @Prop({ type: Date, required: true }) created!: Date;
  @Prop({ type: Object, required: true }) review!: MovieReview;
}

export const ReviewSchema = SchemaFactory.createForClass(ReviewDocument);
ReviewSchema.index({ subject_id: 1 });
