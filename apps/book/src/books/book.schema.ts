import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { declareRankedSearchIndexes } from '@plaza/service-kit';
import { Schema as MongooseSchema } from 'mongoose';

/** A tag as the catalogue import gave it. */
export interface StoredTag {
  name: string;
  count: number;
}

/**
 * A book. `_id` is the book id, so the hot read (GET /v2/book/:id) is one lookup by `_id`.
 *
 * The rating and tags are kept in two parts: the catalogue's (`base_*`, replaced by each import)
 * and the users' (`user_*`, changed by collection and review writes with `$inc`, never by an
 * import). What a reader sees is their sum, computed when a book is shown (see book-view.ts).
 */
@Schema({ collection: 'books', versionKey: false, minimize: false })
export class BookDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ default: '' }) isbn10!: string;
  @Prop({ default: '' }) isbn13!: string;
  @Prop({ required: true }) title!: string;
  @Prop({ default: '' }) origin_title!: string;
  @Prop({ default: '' }) alt_title!: string;
  @Prop({ default: '' }) subtitle!: string;
  /** Addresses given by the import; absent ones are derived from PUBLIC_API_URL / PUBLIC_WEB_URL. */
  @Prop() url?: string;
  @Prop() alt?: string;
  @Prop({ default: '' }) image!: string;
  @Prop({ type: Object, default: () => ({ small: '', large: '', medium: '' }) }) images!: { small: string; large: string; medium: string };
  @Prop({ type: [String], default: [] }) author!: string[];
  @Prop({ type: [String], default: [] }) translator!: string[];
  @Prop({ default: '' }) publisher!: string;
  @Prop({ default: '' }) pubdate!: string;
  @Prop({ default: '' }) binding!: string;
  @Prop({ default: '' }) price!: string;
  @Prop({ type: Object }) series?: { id: string; title: string };
  @Prop({ default: '' }) pages!: string;
  @Prop({ default: '' }) author_intro!: string;
  @Prop({ default: '' }) summary!: string;
  @Prop({ default: '' }) catalog!: string;
  @Prop() ebook_url?: string;
  @Prop() ebook_price?: string;

  /** The catalogue's rating: how many raters and their average, out of 10. */
  @Prop({ type: Object, default: () => ({ num: 0, average: 0 }) }) base_rating!: { num: number; average: number };
  @Prop({ type: [Object], default: [] }) base_tags!: StoredTag[];
  /** Users' ratings: how many, and the sum of their values on the 10 scale (a rating r counts 2r). */
  @Prop({ type: Object, default: () => ({ num: 0, sum: 0 }) }) user_rating!: { num: number; sum: number };
  /** Users' tag counts, keyed by `tagKey(name)` (field names cannot hold every tag's characters). */
  @Prop({ type: MongooseSchema.Types.Mixed, default: () => ({}) }) user_tags!: Record<string, number>;

  /**
   * Search (RankedSearchFields in @plaza/service-kit, computed by the repository on every write:
   * book-search.ts). `search_terms`: terms of the bibliographic fields, matched with `$all`;
   * `title_terms`: those of the titles; `title_keys`: the titles as an exact query compares them;
   * `tag_keys`: normalised names of the tags with a count above 0 (`tag=` with `q`);
   * `search_rank`: raters then id, the order of equally relevant matches.
   */
  @Prop({ type: [String], default: [] }) search_terms!: string[];
  @Prop({ type: [String], default: [] }) title_terms!: string[];
  @Prop({ type: [String], default: [] }) title_keys!: string[];
  @Prop({ type: [String], default: [] }) tag_keys!: string[];
  @Prop({ default: '' }) search_rank!: string;
  /** Raised by every write: a replace applies only to the version it was computed from. */
  @Prop({ default: 0 }) rev!: number;
}

export const BookSchema = SchemaFactory.createForClass(BookDocument);
// FerretDB v1 ignores these (it scans, and the local branch searches in memory); MongoDB answers
// every search page from them (common/indexes.spec.ts)
declareRankedSearchIndexes(BookSchema, { tagOrder: false });

/** A book as read to be shown: everything but the search fields (BookLocalEngine holds these for every book). */
export type BookView = Omit<BookDocument, 'search_terms' | 'title_terms' | 'title_keys' | 'tag_keys' | 'search_rank'>;
BookSchema.index({ 'series.id': 1, _id: 1 });

