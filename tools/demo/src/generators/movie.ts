import { AreaGenerator, CatalogueRecord, CatalogueSize, demoUserIds } from '../catalogue';
import { Random } from '../random';
import { enName, enTitle, prose, timestamp, zhName, zhTitle } from '../text';

const GENRES = ['剧情', '喜剧', '爱情', '动作', '科幻', '悬疑', '惊悚', '动画', '纪录片', '犯罪', '奇幻', '冒险', '家庭', '历史', '战争', '音乐'];
const TAGS = ['经典', '温情', '青春', '成长', '治愈', '烧脑', '黑色幽默', '文艺', '赛博朋克', 'Sci-Fi', 'Noir', 'Indie', 'Road movie', '人性', '友情', '女性'];
const COUNTRIES = ['中国大陆', '中国香港', '中国台湾', '美国', '英国', '法国', '日本', '韩国', '德国', '意大利'];
const LANGUAGES = ['汉语普通话', '粤语', 'English', 'Français', '日本語', '한국어', 'Deutsch'];
const PROFESSIONS = ['演员', '导演', '编剧', '制片人', '配音'];
const CONSTELLATIONS = ['白羊座', '金牛座', '双子座', '巨蟹座', '狮子座', '处女座', '天秤座', '天蝎座', '射手座', '摩羯座', '水瓶座', '双鱼座'];
const BIRTH_PLACES = ['中国,北京', '中国,上海', '中国,杭州', '中国香港', 'USA,New York', 'UK,London', 'France,Paris', '日本,东京'];
const REGIONS = ['中国大陆', '美国', '柏林电影节', '戛纳电影节', '日本', '中国香港'];

/** Id ranges of the demo's movie records (one per kind, so records are easy to tell apart). */
export const MovieDemoIds = {
  celebrity: (n: number) => String(1000000 + n),
  subject: (n: number) => String(2000000 + n),
  photo: (n: number) => String(3000000 + n),
  review: (n: number) => String(4000000 + n),
  comment: (n: number) => String(5000000 + n),
  celebrityPhoto: (n: number) => String(6000000 + n),
};

interface DemoCelebrity {
  id: string;
  name: string;
}

interface DemoSubject {
  id: string;
  year: number;
  average: number;
  subtype: 'movie' | 'tv';
}

const pad = (n: number) => String(n).padStart(2, '0');
const oneDecimal = (n: number) => Math.round(n * 10) / 10;

function celebrities(random: Random, count: number): { records: CatalogueRecord[]; people: DemoCelebrity[] } {
  const records: CatalogueRecord[] = [];
  const people: DemoCelebrity[] = [];
  for (let i = 1; i <= count; i++) {
    const chinese = random.chance(0.7);
    const name = chinese ? zhName(random) : enName(random);
    const id = MovieDemoIds.celebrity(i);
    people.push({ id, name });
    records.push({
      kind: 'celebrity',
      id,
      name,
      name_en: chinese ? (random.chance(0.5) ? enName(random) : '') : name,
      summary: prose(random, random.int(1, 4)),
      aka: random.chance(0.3) ? [zhName(random)] : [],
      aka_en: random.chance(0.3) ? [enName(random)] : [],
      gender: random.pick(['男', '女']),
      birthday: `${random.int(1940, 2005)}-${pad(random.int(1, 12))}-${pad(random.int(1, 28))}`,
      born_place: random.pick(BIRTH_PLACES),
      professions: random.sample(PROFESSIONS, random.int(1, 3)),
      constellation: random.pick(CONSTELLATIONS),
    });
  }
  return { records, people };
}

/**
 * Credits come from a window of celebrities near the subject's place in the catalogue, so a
 * celebrity's works are subjects close to each other: loading a batch of subjects then touches
 * few celebrities (whose works are derived as subjects load).
 */
function creditPool(random: Random, people: DemoCelebrity[], index: number, subjects: number): () => DemoCelebrity {
  const centre = Math.floor((index * people.length) / subjects);
  // the window is wider than a small catalogue's whole cast: wrap around from either end
  return () => people[(((centre + random.int(-40, 40)) % people.length) + people.length) % people.length];
}

function subject(random: Random, n: number, size: CatalogueSize, people: DemoCelebrity[]): { record: CatalogueRecord; info: DemoSubject } {
  const id = MovieDemoIds.subject(n);
  const subtype = random.chance(0.2) ? 'tv' : 'movie';
  const year = random.int(1975, 2025);
  const average = oneDecimal(random.chance(0.05) ? 0 : 4 + random.next() * 5.8);
  const person = creditPool(random, people, n, size.movies);
  const credit = () => {
    const p = person();
    return { id: p.id, name: p.name };
  };
  const unique = <T extends { id: string }>(list: T[]) => list.filter((c, i) => list.findIndex((o) => o.id === c.id) === i);
  // a catalogue without celebrities has subjects without credits
  const credits = (count: number) => (people.length === 0 ? [] : unique(Array.from({ length: count }, credit)));
  const title = zhTitle(random);
  const english = random.chance(0.6) ? enTitle(random) : '';
  const regions = random.sample(REGIONS, random.int(1, 3));
  const pubdates = regions.map((region) => `${year}-${pad(random.int(1, 12))}-${pad(random.int(1, 28))}(${region})`);
  const mainland = pubdates.find((d) => d.endsWith('(中国大陆)'))?.slice(0, 10) ?? '';
  const record: CatalogueRecord = {
    kind: 'movie',
    id,
    title,
    original_title: english || title,
    aka: random.chance(0.4) ? [random.chance(0.5) ? zhTitle(random) : enTitle(random)] : [],
    rating: { max: 10, average, min: 0 },
    ratings_count: average === 0 ? 0 : random.int(10, 500000),
    wish_count: random.int(0, 80000),
    collect_count: random.int(0, 300000),
    subtype,
    directors: credits(random.chance(0.1) ? 2 : 1),
    casts: credits(random.int(2, 7)),
    writers: credits(random.int(1, 2)),
    website: random.chance(0.2) ? `https://www.example.com/films/${id}` : '',
    // every demo subject has an IMDb id of its own (docs/api/movie.md); drawn from no random value, so the rest stays as it was
    imdb: `tt${id.padStart(7, '0')}`,
    pubdates,
    mainland_pubdate: mainland,
    year: String(year),
    languages: random.sample(LANGUAGES, random.int(1, 2)),
    durations: subtype === 'movie' ? [`${random.int(80, 180)}分钟`] : [`${random.int(20, 60)}分钟`],
    genres: random.sample(GENRES, random.int(1, 4)),
    countries: random.sample(COUNTRIES, random.int(1, 2)),
    summary: prose(random, random.int(2, 6)),
    tags: random.sample(TAGS, random.int(0, 4)),
    trailer_urls: Array.from({ length: random.int(0, 5) }, (_, k) => `https://video.example.com/${id}/trailer-${k + 1}.mp4`),
    clip_urls: Array.from({ length: random.int(0, 2) }, (_, k) => `https://video.example.com/${id}/clip-${k + 1}.mp4`),
    blooper_urls: random.chance(0.1) ? [`https://video.example.com/${id}/blooper-1.mp4`] : [],
  };
  if (subtype === 'tv') {
    const seasons = random.int(1, 6);
    Object.assign(record, { seasons_count: seasons, current_season: random.int(1, seasons), episodes_count: random.int(6, 40), do_count: random.int(0, 20000) });
  } else if (year >= 2024) {
    record.schedule_url = `https://www.example.com/films/${id}/cinema/`;
  }
  return { record, info: { id, year, average, subtype } };
}

/**
 * The movie part of the demo catalogue (docs/api/import.md record kinds): `size.celebrities`
 * celebrities, `size.movies` subjects (a fifth of them tv), their photos, reviews and short
 * comments by the demo users, celebrity photos, and all six lists (in_theaters for 北京 and 上海).
 */
export const movieGenerator: AreaGenerator = function* (random, size) {
  const authors = demoUserIds(size);
  const { records: celebrityRecords, people } = celebrities(random.fork('celebrities'), size.celebrities);
  yield* celebrityRecords;

  const subjects: DemoSubject[] = [];
  const subjectRandom = random.fork('subjects');
  for (let n = 1; n <= size.movies; n++) {
    const { record, info } = subject(subjectRandom, n, size, people);
    subjects.push(info);
    yield record;
  }

  // photos, reviews and comments, grouped by subject (an import batch then touches few subjects)
  const media = random.fork('media');
  let photoId = 0;
  let reviewId = 0;
  let commentId = 0;
  for (const s of subjects) {
    const when = () => timestamp(media, Math.max(s.year, 2005), 2025);
    for (let k = media.int(0, 6); k > 0; k--) {
      yield { kind: 'movie_photo', id: MovieDemoIds.photo(++photoId), subject_id: s.id, created_at: when(), author_id: media.pick(authors), desc: media.chance(0.5) ? prose(media, 1) : '', comments_count: media.int(0, 30) };
    }
    for (let k = media.int(0, 4); k > 0; k--) {
      yield {
        kind: 'movie_review', id: MovieDemoIds.review(++reviewId), subject_id: s.id, title: zhTitle(media), created_at: when(), author_id: media.pick(authors),
        summary: prose(media, media.int(2, 8)), rating: { max: 5, value: media.int(1, 5), min: 0 },
        useful_count: media.int(0, 2000), useless_count: media.int(0, 100), comments_count: media.int(0, 200),
      };
    }
    for (let k = media.int(0, 8); k > 0; k--) {
      yield {
        kind: 'movie_comment', id: MovieDemoIds.comment(++commentId), subject_id: s.id, created_at: when(), author_id: media.pick(authors),
        content: prose(media, media.int(1, 3)), rating: { value: media.int(0, 5) }, useful_count: media.int(0, 500),
      };
    }
  }

  const celebrityMedia = random.fork('celebrity-photos');
  let celebrityPhotoId = 0;
  for (const person of people) {
    if (!celebrityMedia.chance(0.2)) continue;
    for (let k = celebrityMedia.int(1, 4); k > 0; k--) {
      yield { kind: 'celebrity_photo', id: MovieDemoIds.celebrityPhoto(++celebrityPhotoId), celebrity_id: person.id, created_at: timestamp(celebrityMedia, 2010, 2025), author_id: celebrityMedia.pick(authors) };
    }
  }

  yield* lists(random.fork('lists'), subjects);
};

function* lists(random: Random, subjects: DemoSubject[]): Generator<CatalogueRecord> {
  const movies = subjects.filter((s) => s.subtype === 'movie');
  const ids = (list: DemoSubject[]) => list.map((s) => ({ subject_id: s.id }));
  const best = [...movies].sort((a, b) => b.average - a.average || a.id.localeCompare(b.id)).slice(0, 250);
  yield { kind: 'movie_list', name: 'top250', title: '电影 Top 250', subjects: best.map((s, i) => ({ subject_id: s.id, rank: i + 1 })) };

  const recent = movies.filter((s) => s.year >= 2023);
  const box = random.sample(recent, 10).map((s, i) => ({ subject_id: s.id, rank: i + 1, box: Math.round(9e7 / (i + 1) + random.int(0, 1e6)), new: random.chance(0.3) }));
  yield { kind: 'movie_list', name: 'us_box', title: '北美票房榜', date: '5月20 - 5月22日', subjects: box };
  yield { kind: 'movie_list', name: 'weekly', title: '一周口碑榜', subjects: random.sample(recent, 10).map((s, i) => ({ subject_id: s.id, rank: i + 1, delta: random.int(-5, 5) })) };
  yield { kind: 'movie_list', name: 'new_movies', title: '新片榜', subjects: ids(random.sample(recent, 20)) };

  const showing = movies.filter((s) => s.year >= 2024);
  yield { kind: 'movie_list', name: 'in_theaters', city: '108288', subjects: ids(random.sample(showing, 30)) };
  yield { kind: 'movie_list', name: 'in_theaters', city: '108296', subjects: ids(random.sample(showing, 25)) };
  yield { kind: 'movie_list', name: 'coming_soon', title: '即将上映的电影', subjects: ids(random.sample(movies.filter((s) => s.year === 2025), 30)) };
}
