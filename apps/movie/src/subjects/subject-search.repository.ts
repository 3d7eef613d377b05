import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { DatabaseEngine, LocalSearchIndex } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { putById } from '../shared/store';
import { SubjectSearchDocument } from './subject-search.schema';

/** What ranking reads of each match (search.service.ts). */
const CARD_FIELDS = { _id: 1, title: 1, original_title: 1, aka: 1, tags: 1, ratings_count: 1 } as const;
export type SubjectSearchCard = Pick<SubjectSearchDocument, keyof typeof CARD_FIELDS>;
const cardOf = ({ _id, title, original_title, aka, tags, ratings_count }: SubjectSearchDocument): SubjectSearchCard => ({ _id, title, original_title, aka, tags, ratings_count });

/**
 * The `subject_search` collection. On MongoDB a search is a query on its multikey indexes; on
 * the local engine (FerretDB, which would decode every document) it is answered from an
 * in-memory index that this repository, the collection's only writer, keeps current.
 */
@Injectable()
export class SubjectSearchRepository implements OnApplicationBootstrap {
  private readonly local = new LocalSearchIndex<SubjectSearchDocument, SubjectSearchCard>(cardOf);

  constructor(
    @InjectModel(SubjectSearchDocument.name) private readonly model: Model<SubjectSearchDocument>,
    private readonly engine: DatabaseEngine,
  ) {}

  async put(doc: SubjectSearchDocument) {
    const result = await putById(this.model.collection, doc);
    if (await this.engine.isFerretDb()) this.local.put(doc);
    return result;
  }

  /**
   * Subjects holding every term and, when given, the tag. Terms and tag are plain strings from
   * libs/search (never patterns or operators), so user input cannot change the query's shape.
   */
  async matching(terms: string[], tagKey: string | undefined): Promise<SubjectSearchCard[]> {
    if (terms.length === 0 && tagKey === undefined) return [];
    if (await this.engine.isFerretDb()) {
      await this.local.ready(() => this.all());
      return this.local.matching(terms, tagKey);
    }
    const filter: Record<string, unknown> = {};
    if (terms.length > 0) filter.search_terms = { $all: terms };
    if (tagKey !== undefined) filter.tag_keys = { $all: [tagKey] };
    return this.model.find(filter, CARD_FIELDS).lean<SubjectSearchCard[]>().exec();
  }

  private async *all(): AsyncIterable<SubjectSearchDocument> {
    yield* this.model.find({}).lean<SubjectSearchDocument[]>().cursor();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.local.preload(this.engine, () => this.all());
  }
}
