import { Inject, Injectable } from '@nestjs/common';
import { renderCelebrity, renderSimpleCelebrity } from '../celebrities/celebrity.render';
import { CelebritiesRepository } from '../celebrities/celebrities.repository';
import { CelebrityViewsRepository } from '../celebrities/celebrity-views.repository';
import { MovieLinks } from '../shared/links';
import { creditsOf, renderSearchEntry, renderSimpleSubject, renderSubject, SubjectRecord } from '../subjects/subject.render';
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
    private readonly search: SubjectSearchRepository,
    private readonly subjectViews: SubjectViewsRepository,
    private readonly celebrities: CelebritiesRepository,
    private readonly celebrityViews: CelebrityViewsRepository,
    @Inject(MovieLinks) private readonly links: MovieLinks,
  ) {}

  /**
   * Stores the subject and renders its view. The credited celebrities' works are derived from
   * the directors, writers and casts: each gets this work (with its roles and Simple Subject),
   * and a celebrity dropped from the credits loses it.
   */
  async movie(input: MovieRecord, session: ImportSession): Promise<void> {
    const record: SubjectRecord = { ...plain(input), subtype: input.subtype ?? 'movie' };
    await session.records.run(`subject:${record.id}`, async () => {
      const { previous } = await this.subjects.put({ _id: record.id, record });
      await this.search.put(renderSearchEntry(record));
      const simple = renderSimpleSubject(record, this.links);
      const { simpleChanged } = await this.subjectViews.saveSubject(record.id, renderSubject(record, this.links), simple);
      if (simpleChanged) session.simples.set(record.id, simple);

      const now = creditsOf(record);
      for (const [celebrityId, roles] of now) session.work(celebrityId, record.id, { subject_id: record.id, roles, subject: simple });
      for (const celebrityId of creditsOf(previous?.record).keys()) if (!now.has(celebrityId)) session.work(celebrityId, record.id, null);
    });
  }

  async celebrity(input: CelebrityRecord, session: ImportSession): Promise<void> {
    const record = plain(input);
    await session.records.run(`celebrity:${record.id}`, async () => {
      await this.celebrities.put({ _id: record.id, record });
      const celebrity = renderCelebrity(record, this.links);
      await this.celebrityViews.saveCelebrity(record.id, celebrity, renderSimpleCelebrity(celebrity));
    });
  }
}
