import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { MovieListName, SimpleSubject } from '@plaza/contracts';

/** One ranked entry, its Simple Subject precomputed (refreshed when the subject is loaded again). */
export interface StoredListEntry {
  subject_id: string;
  rank: number;
  box: number;
  new: boolean;
  delta: number;
  subject: SimpleSubject;
}

/** A list (top250, us_box, ...; in_theaters once per city), read with one findById. */
@Schema({ collection: 'movie_lists', versionKey: false })
export class MovieListDocument {
  /** `<name>`, or `in_theaters:<city id>`. */
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ type: String, required: true }) name!: MovieListName;
  @Prop({ type: String, default: null }) city!: string | null;
  /** As loaded; null means the list's default title. */
  @Prop({ type: String, default: null }) title!: string | null;
  @Prop({ type: String, default: '' }) date!: string;
  /** In rank order. */
  @Prop({ type: [Object], default: [] }) entries!: StoredListEntry[];
  /** Raised by every change: on MongoDB a change applies only to the version it was computed from. */
  @Prop({ type: Number }) rev?: number;
}

export const MovieListSchema = SchemaFactory.createForClass(MovieListDocument);

export const listId = (name: MovieListName, city: string | null) => (city ? `${name}:${city}` : name);
