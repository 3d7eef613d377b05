import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { declareRankedSearchIndexes } from '@plaza/service-kit';

/**
 * What `GET /v2/movie/search` matches and ranks by, one small document per subject: a page of
 * ids comes from its indexes (MongoDB) or from the in-memory index built from it (local engine);
 * the page's Simple Subjects come from `subject_views` by id.
 */
@Schema({ collection: 'subject_search', versionKey: false })
export class SubjectSearchDocument {
  @Prop({ type: String, required: true }) _id!: string;
  /** libs/search terms of the titles, aka and tags, matched with `$all`. */
  @Prop({ type: [String], default: [] }) search_terms!: string[];
  /** Normalised whole tags and genres, matched by `tag=`. */
  @Prop({ type: [String], default: [] }) tag_keys!: string[];
  /** Shown nowhere; kept as imported (the ranking fields below are computed from them). */
  @Prop({ default: '' }) title!: string;
  @Prop({ default: '' }) original_title!: string;
  @Prop({ type: [String], default: [] }) aka!: string[];
  @Prop({ type: [String], default: [] }) tags!: string[];
  @Prop({ default: 0 }) ratings_count!: number;
  /** Ranking (RankedSearchFields, subjectSearchFields): terms and exact keys of the titles, ratings then id. */
  @Prop({ type: [String], default: [] }) title_terms!: string[];
  @Prop({ type: [String], default: [] }) title_keys!: string[];
  @Prop({ default: '' }) search_rank!: string;
}

export const SubjectSearchSchema = SchemaFactory.createForClass(SubjectSearchDocument);
// MongoDB answers every search page from these; FerretDB v1 keeps but does not use them (the
// local branch searches in memory). indexes.spec.ts checks each query against them.
declareRankedSearchIndexes(SubjectSearchSchema, { tagOrder: true });
