import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * What `GET /v2/movie/search` matches and ranks by, one small document per subject. FerretDB v1
 * answers a search by reading the whole collection, so it holds nothing else: scanning it costs
 * a third of scanning the subject records (measured on the demo catalogue). The page's Simple
 * Subjects come from `subject_views` by id.
 */
@Schema({ collection: 'subject_search', versionKey: false })
export class SubjectSearchDocument {
  @Prop({ type: String, required: true }) _id!: string;
  /** libs/search terms of the titles, aka and tags, matched with `$all`. */
  @Prop({ type: [String], default: [] }) search_terms!: string[];
  /** Normalised whole tags and genres, matched by `tag=`. */
  @Prop({ type: [String], default: [] }) tag_keys!: string[];
  /** Ranking: relevance to `q` over these texts, then the number of ratings. */
  @Prop({ default: '' }) title!: string;
  @Prop({ default: '' }) original_title!: string;
  @Prop({ type: [String], default: [] }) aka!: string[];
  @Prop({ type: [String], default: [] }) tags!: string[];
  @Prop({ default: 0 }) ratings_count!: number;
}

export const SubjectSearchSchema = SchemaFactory.createForClass(SubjectSearchDocument);
// multikey indexes for MongoDB; FerretDB v1 keeps but does not use them
SubjectSearchSchema.index({ search_terms: 1 });
SubjectSearchSchema.index({ tag_keys: 1 });
