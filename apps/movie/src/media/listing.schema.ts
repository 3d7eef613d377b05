import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * The ordered ids of one album, or of one subject's reviews or comments, so that a page is a
 * findById here plus a findById per item: FerretDB v1 can only look up by `_id`, and a
 * `subject_id` query would read the whole collection. `keys[i]` is the sort key of `ids[i]`.
 */
@Schema({ collection: 'listings', versionKey: false })
export class ListingDocument {
  /** `subject:<id>:photos`, `subject:<id>:reviews`, `subject:<id>:comments`, `celebrity:<id>:photos`. */
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ type: [String], default: [] }) ids!: string[];
  @Prop({ type: [String], default: [] }) keys!: string[];
  /** Raised by every change: on MongoDB a change applies only to the version it was computed from. */
  @Prop({ type: Number }) rev?: number;
}

export const ListingSchema = SchemaFactory.createForClass(ListingDocument);

export const Listings = {
  subjectPhotos: (id: string) => `subject:${id}:photos`,
  subjectReviews: (id: string) => `subject:${id}:reviews`,
  subjectComments: (id: string) => `subject:${id}:comments`,
  celebrityPhotos: (id: string) => `celebrity:${id}:photos`,
};
