import { Inject, Injectable } from '@nestjs/common';
import { ChangeFeed } from '@plaza/service-kit';
import { renderCelebrity, renderSimpleCelebrity } from '../celebrities/celebrity.render';
import { CelebritiesRepository } from '../celebrities/celebrities.repository';
import { CelebrityViewsRepository } from '../celebrities/celebrity-views.repository';
import { MovieLinks } from '../common/links';
import { creditsOf, renderSearchEntry, renderSimpleSubject, renderSubject, SubjectRecord } from '../subjects/subject.render';
import { SubjectImdbRepository } from '../subjects/subject-imdb.repository';
import { SubjectSearchRepository } from '../subjects/subject-search.repository';
import { SubjectViewsRepository } from '../subjects/subject-views.repository';
import { SubjectsRepository } from '../subjects/subjects.repository';
import { ImportSession } from './import-session';
import { CelebrityRecord, MovieRecord } from './movie-import.records';

/** A validated record as plain data (no class instances, no undefined members) for storage. */
export const plain = <T>(record: T): T => JSON.parse(JSON.stringify(record)) as T;

/** `movie` and `celebrity` records: stored, then their views rendered. */
@Injectable()
export class CatalogueImporter {
  constructor(
    private readonly subjects: SubjectsRepository,
    private readonly imdb: SubjectImdbRepository,
    private readonly search: SubjectSearchRepository,
    private readonly subjectViews: SubjectViewsRepository,
    private readonly celebrities: CelebritiesRepository,
    private readonly celebrityViews: CelebrityViewsRepository,
    @Inject(MovieLinks) private readonly links: MovieLinks,
    private readonly feed: ChangeFeed,
  ) {}

  /**
   * Stores the subject and renders its view. The credited celebrities' works are derived from
   * the directors, writers and casts: each gets this work (with its roles and Simple Subject),
   * and a celebrity dropped from the credits loses it.
   */
  async movie(input: MovieRecord, session: ImportSession): Promise<void> {
    const record: SubjectRecord = { ...plain(input), subtype: input.subtype ?? 'movie' };
    // a changed record is one entry of the change feed (docs/api/changes.md)
    await session.records.run(`subject:${record.id}`, () => this.feed.record('movie', record.id, record, async () => {
      const { previous } = await this.putSubject(record);
      await this.search.put(renderSearchEntry(record));
      const simple = renderSimpleSubject(record, this.links);
      const { simpleChanged } = await this.subjectViews.saveSubject(record.id, renderSubject(record, this.links), simple);
      if (simpleChanged) session.simples.set(record.id, simple);

      const now = creditsOf(record);
      for (const [celebrityId, roles] of now) session.work(celebrityId, record.id, { subject_id: record.id, roles, subject: simple });
      for (const celebrityId of creditsOf(previous?.record).keys()) if (!now.has(celebrityId)) session.work(celebrityId, record.id, null);
    }));
  }

  /**
   * Stores the record, holding its IMDb id first (unique: a record naming an id another subject's
   * record names fails its line), and lets go of an id the subject no longer names.
   */
  private async putSubject(record: SubjectRecord) {
    const put = () => this.subjects.put({ _id: record.id, record });
    const holderNames = async (otherId: string) => (await this.subjects.byId(otherId))?.record.imdb === record.imdb;
    const result = record.imdb ? await this.imdb.claim(record.imdb, record.id, holderNames, put) : await put();
    const before = result.previous?.record.imdb;
    if (before && before !== record.imdb) await this.imdb.release(before, record.id);
    return result;
  }

  async celebrity(input: CelebrityRecord, session: ImportSession): Promise<void> {
    const record = plain(input);
    await session.records.run(`celebrity:${record.id}`, () => this.feed.record('celebrity', record.id, record, async () => {
      await this.celebrities.put({ _id: record.id, record });
      const celebrity = renderCelebrity(record, this.links);
      await this.celebrityViews.saveCelebrity(record.id, celebrity, renderSimpleCelebrity(celebrity));
    }));
  }
}
