import { CelebrityRole, MovieCelebrity, SimpleCelebrity, SimpleSubject } from '@plaza/contracts';
import { CelebrityRecord } from '../import/movie-import.records';
import { withImages } from '../common/images';
import { MovieLinks } from '../common/links';

export type StoredCelebrityRecord = CelebrityRecord;

/** One work of a celebrity as stored in its view: the subject, the roles, ordered newest first. */
export interface StoredWork {
  subject_id: string;
  roles: CelebrityRole[];
  subject: SimpleSubject;
}

/** A celebrity as the advance tier sees it; `works` and `photos` are derived and filled on read. */
export function renderCelebrity(r: StoredCelebrityRecord, links: MovieLinks): MovieCelebrity {
  return {
    id: r.id,
    name: r.name,
    name_en: r.name_en ?? '',
    alt: r.alt ?? links.celebrityAlt(r.id),
    mobile_url: r.mobile_url ?? links.celebrityMobile(r.id),
    avatars: withImages(r.avatars, links.celebrityAvatars(r.id)),
    summary: r.summary ?? '',
    aka: r.aka ?? [],
    aka_en: r.aka_en ?? [],
    website: r.website ?? '',
    gender: r.gender ?? '',
    birthday: r.birthday ?? '',
    born_place: r.born_place ?? '',
    professions: r.professions ?? [],
    constellation: r.constellation ?? '',
    photos: [],
    works: [],
  };
}

export function renderSimpleCelebrity(c: MovieCelebrity): SimpleCelebrity {
  return { id: c.id, name: c.name, alt: c.alt, avatars: c.avatars };
}

const yearOf = (w: StoredWork) => (/^\d{4}/.test(w.subject.year) ? Number(w.subject.year.slice(0, 4)) : -1);
const idOrder = (a: string, b: string) => (a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0);

/** Works newest first (by year; subjects without a year last), then the higher subject id first. */
export function sortWorks(works: StoredWork[]): StoredWork[] {
  return [...works].sort((a, b) => yearOf(b) - yearOf(a) || idOrder(b.subject_id, a.subject_id));
}
