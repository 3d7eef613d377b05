import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { DatabaseEngine, LocalSearchIndex, rankedSearchPage, SearchPage, SearchQuery, SearchWindow, tagSearchPage } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { putById } from '../common/store';
import { subjectSearchFields } from './subject.render';
import { SubjectSearchDocument } from './subject-search.schema';

/**
 * The `subject_search` collection, and the one thing the movie service does differently on the
 * local engine (docs/ENGINES.md): on MongoDB a search page is a few queries on its indexes
 * (ranked-search.ts in @plaza/service-kit); on the local engine (FerretDB, which would decode every
 * document) it comes from an in-memory index in the same order, which this repository, the
 * collection's only writer, keeps current (one instance per service there, held by its lease).
 */
@Injectable()
export class SubjectSearchRepository implements OnApplicationBootstrap {
  private readonly local = new LocalSearchIndex<SubjectSearchDocument>(subjectSearchFields);

  constructor(
    @InjectModel(SubjectSearchDocument.name) private readonly model: Model<SubjectSearchDocument>,
    private readonly engine: DatabaseEngine,
  ) {}

  async put(doc: SubjectSearchDocument) {
    const result = await putById(this.model.collection, doc);
    await this.engine.run('movie.search.upkeep', {
      mongodb: () => undefined,
      local: () => this.local.put(doc),
    });
    return result;
  }

  /**
   * A page of the subjects matching every term and, when given, the tag, as ids in rank order, and
   * how many match up to the window's limit. Terms and tag are plain strings from libs/search
   * (never patterns or operators), so user input cannot change the queries' shape.
   */
  async searchPage(query: SearchQuery, window: SearchWindow): Promise<SearchPage> {
    if (query.terms.length === 0 && query.tagKey === undefined) return { total: 0, ids: [] };
    const model = this.model as unknown as Model<never>;
    return this.engine.run('movie.search', {
      mongodb: () => (query.terms.length === 0 && query.tagKey !== undefined ? tagSearchPage(model, query.tagKey, window) : rankedSearchPage(model, query, window)),
      local: async () => {
        await this.local.ready(() => this.all());
        return this.local.page(query, window);
      },
    });
  }

  private async *all(): AsyncIterable<SubjectSearchDocument> {
    yield* this.model.find({}, { _id: 1, title: 1, original_title: 1, aka: 1, ratings_count: 1, search_terms: 1, tag_keys: 1 }).lean<SubjectSearchDocument[]>().cursor();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.local.preload(this.engine, () => this.all());
  }
}
