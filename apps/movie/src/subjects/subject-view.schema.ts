import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { MoviePhoto, MovieReview, MovieSubject, SimpleSubject } from '@plaza/contracts';

/**
 * Everything `GET /v2/movie/subject/:id` needs, precomputed at import so a read is one findById:
 * the subject as the advance tier sees it (from its record), its Simple Subject (for lists, works
 * and the photo/review/comment pages), and the parts derived from other records. Each part is
 * rewritten only when the records it comes from change.
 */
@Schema({ collection: 'subject_views', versionKey: false })
export class SubjectViewDocument {
  @Prop({ type: String, required: true }) _id!: string;
  /** Rendered from the record; `photos`/`popular_reviews` empty, counts as the record gives them. */
  @Prop({ type: Object, required: true }) subject!: MovieSubject;
  @Prop({ type: Object, required: true }) simple!: SimpleSubject;
  /** The first 10 photos of the album, with their place in it. */
  @Prop({ type: [Object], default: [] }) photos!: MoviePhoto[];
  @Prop({ default: 0 }) photos_total!: number;
  /** The first 10 reviews, most useful first, summaries already cut. */
  @Prop({ type: [Object], default: [] }) popular_reviews!: MovieReview[];
  @Prop({ default: 0 }) reviews_total!: number;
  @Prop({ default: 0 }) comments_total!: number;
  /** Raised by every change: on MongoDB a change applies only to the version it was computed from. */
  @Prop({ type: Number }) rev?: number;
}

export const SubjectViewSchema = SchemaFactory.createForClass(SubjectViewDocument);
