import { Injectable } from '@nestjs/common';
import { SimpleSubject } from '@plaza/contracts';
import { DEFAULT_CITY } from '../lists/city-resolver';
import { listId, StoredListEntry } from '../lists/movie-list.schema';
import { MovieListsRepository } from '../lists/movie-lists.repository';
import { mapLimit } from '../common/store';
import { SubjectViewsRepository } from '../subjects/subject-views.repository';
import { MovieListRecord } from './movie-import.records';

/**
 * `movie_list` records, upserted by (name, city): entries ordered by `rank` (else as given), each
 * naming a loaded subject, whose Simple Subject is stored with it so a read is one findById.
 */
@Injectable()
export class ListImporter {
  constructor(
    private readonly lists: MovieListsRepository,
    private readonly subjectViews: SubjectViewsRepository,
  ) {}

  async list(r: MovieListRecord): Promise<void> {
    if (r.city !== undefined && r.name !== 'in_theaters') throw new Error('city applies to in_theaters only');
    const ids = r.subjects.map((e) => e.subject_id);
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    if (repeated.length > 0) throw new Error(`subject ${repeated[0]} appears more than once`);

    const simples = await mapLimit(ids, 8, async (id) => (await this.subjectViews.byId(id))?.simple);
    const missing = ids.filter((_, i) => !simples[i]);
    if (missing.length > 0) throw new Error(`no movie subject ${missing.join(', ')}`);

    const entries: StoredListEntry[] = r.subjects
      .map((e, i) => ({ subject_id: e.subject_id, rank: e.rank ?? i + 1, box: e.box ?? 0, new: e.new ?? false, delta: e.delta ?? 0, subject: simples[i] as SimpleSubject }))
      .sort((a, b) => a.rank - b.rank);
    const city = r.name === 'in_theaters' ? r.city ?? DEFAULT_CITY.id : null;
    await this.lists.put({ _id: listId(r.name, city), name: r.name, city, title: r.title ?? null, date: r.date ?? '', entries });
  }
}
