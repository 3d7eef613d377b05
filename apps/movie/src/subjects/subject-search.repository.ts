import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { putById } from '../shared/store';
import { SubjectSearchDocument } from './subject-search.schema';

/** The `subject_search` collection. */
@Injectable()
export class SubjectSearchRepository {
  constructor(@InjectModel(SubjectSearchDocument.name) private readonly model: Model<SubjectSearchDocument>) {}

  put(doc: SubjectSearchDocument) {
    return putById(this.model.collection, doc);
  }

  /**
   * Subjects holding every term and, when given, the tag. Terms and tag are plain strings from
   * libs/search (never patterns or operators), so user input cannot change the query's shape.
   */
  async matching(terms: string[], tagKey: string | undefined): Promise<SubjectSearchDocument[]> {
    const filter: Record<string, unknown> = {};
    if (terms.length > 0) filter.search_terms = { $all: terms };
    if (tagKey !== undefined) filter.tag_keys = { $all: [tagKey] };
    if (Object.keys(filter).length === 0) return [];
    return this.model.find(filter, { search_terms: 0, tag_keys: 0 }).lean<SubjectSearchDocument[]>().exec();
  }
}
