import { AreaGenerator, CatalogueRecord } from '../catalogue';
import { Random } from '../random';
import { enName, enTitle, prose, zhName, zhTitle } from '../text';

/** Demo book ids start here (the API's ids are digit strings). */
export const DEMO_BOOK_ID_START = 1_000_001;
const DEMO_SERIES_ID_START = 9_000_001;
/** Covers live on a placeholder host: the demo ships no pictures. */
const COVERS = 'https://img.plaza.example/book';

const ZH_PUBLISHERS = ['人民文学出版社', '上海译文出版社', '作家出版社', '中信出版社', '南海出版公司', '生活·读书·新知三联书店', '北京大学出版社', '商务印书馆', '译林出版社', '广西师范大学出版社'];
const EN_PUBLISHERS = ['Penguin Books', 'Vintage', 'Scribner', 'HarperCollins', 'Oxford University Press', 'Random House', 'MIT Press', "O'Reilly Media"];
const ZH_TAGS = ['小说', '文学', '历史', '科幻', '推理', '哲学', '心理学', '经典', '传记', '社会学', '经济学', '诗歌', '散文', '旅行', '美食', '设计', '艺术', '成长', '悬疑', '中国文学', '外国文学', '日本文学', '编程', '科普', '漫画', '爱情', '青春', '政治', '教育', '思维'];
const EN_TAGS = ['fiction', 'classic', 'history', 'sci-fi', 'mystery', 'philosophy', 'biography', 'poetry', 'travel', 'programming', 'science', 'essays'];
const SUBTITLES = ['一部长篇小说', '修订版', '插图珍藏版', '最新增订本', 'A Novel', 'Revised Edition', 'Stories', ''];

/** Well-known public-domain works, so demo searches find something familiar. */
const CLASSICS: Array<{ title: string; author: string; origin?: string; translator?: string; tags: string[]; zh: boolean }> = [
  { title: '红楼梦', author: '曹雪芹', tags: ['古典文学', '小说', '中国文学', '经典'], zh: true },
  { title: '西游记', author: '吴承恩', tags: ['古典文学', '神话', '中国文学', '经典'], zh: true },
  { title: '水浒传', author: '施耐庵', tags: ['古典文学', '小说', '中国文学'], zh: true },
  { title: '三国演义', author: '罗贯中', tags: ['古典文学', '历史', '中国文学'], zh: true },
  { title: '论语', author: '孔子', tags: ['哲学', '儒家', '经典'], zh: true },
  { title: '呐喊', author: '鲁迅', tags: ['鲁迅', '小说', '中国文学', '经典'], zh: true },
  { title: '傲慢与偏见', author: '[英] 简·奥斯汀', origin: 'Pride and Prejudice', translator: '王科一', tags: ['外国文学', '爱情', '经典', '小说'], zh: true },
  { title: '白鲸', author: '[美] 赫尔曼·梅尔维尔', origin: 'Moby-Dick', translator: '成时', tags: ['外国文学', '小说', '经典'], zh: true },
  { title: 'Pride and Prejudice', author: 'Jane Austen', tags: ['classic', 'fiction', 'romance'], zh: false },
  { title: 'Moby-Dick', author: 'Herman Melville', tags: ['classic', 'fiction', 'sea'], zh: false },
  { title: 'The Adventures of Sherlock Holmes', author: 'Arthur Conan Doyle', tags: ['mystery', 'classic', 'fiction'], zh: false },
  { title: "Alice's Adventures in Wonderland", author: 'Lewis Carroll', tags: ['classic', 'fantasy', 'children'], zh: false },
];

/** An ISBN-13 with a valid check digit, and its ISBN-10 (978 prefix only). */
function isbnPair(r: Random, zh: boolean): { isbn10: string; isbn13: string } {
  const group = zh ? '7' : r.pick(['0', '1']);
  let body = group;
  while (body.length < 9) body += String(r.int(0, 9));
  const sum10 = [...body].reduce((s, d, i) => s + Number(d) * (10 - i), 0);
  const check10 = (11 - (sum10 % 11)) % 11;
  const twelve = `978${body}`;
  const sum13 = [...twelve].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return { isbn10: `${body}${check10 === 10 ? 'X' : check10}`, isbn13: `${twelve}${(10 - (sum13 % 10)) % 10}` };
}

/** Most books have few raters, a few have very many (a long tail). */
function raters(r: Random): number {
  if (r.chance(0.08)) return 0;
  return Math.floor(Math.exp(r.next() * Math.log(40_000)));
}

function rating(r: Random) {
  const numRaters = raters(r);
  const average = numRaters === 0 ? '0.0' : (Math.round((5 + r.next() * 4.6) * 10) / 10).toFixed(1);
  return { max: 10, numRaters, average, min: 0 };
}

function tags(r: Random, zh: boolean, fixed: string[] = []) {
  const names = fixed.length > 0 ? fixed : r.sample(zh ? ZH_TAGS : EN_TAGS, r.int(2, 6));
  let count = r.int(50, 3000);
  return names.map((name) => {
    const tag = { count, name };
    count = Math.max(1, Math.floor(count * (0.4 + r.next() * 0.5)));
    return tag;
  });
}

function pubdate(r: Random): string {
  const year = r.int(1980, 2025);
  return r.chance(0.5) ? `${year}-${r.int(1, 12)}` : `${year}-${r.int(1, 12)}-${r.int(1, 28)}`;
}

interface BookSeed {
  id: string;
  title: string;
  zh: boolean;
  author?: string[];
  origin_title?: string;
  translator?: string[];
  fixedTags?: string[];
  series?: { id: string; title: string };
}

function bookRecord(r: Random, seed: BookSeed): CatalogueRecord {
  const { zh, id } = seed;
  const translated = zh && (seed.origin_title !== undefined || r.chance(0.25));
  const origin = seed.origin_title ?? (translated ? enTitle(r) : '');
  const author = seed.author ?? Array.from({ length: r.chance(0.15) ? 2 : 1 }, () => (zh && !translated ? zhName(r) : translated ? `[美] ${enName(r)}` : enName(r)));
  const translator = seed.translator ?? (translated ? [zhName(r)] : []);
  const pages = r.int(96, 880);
  const hasEbook = r.chance(0.1);
  return {
    kind: 'book',
    id,
    ...isbnPair(r, zh),
    title: seed.title,
    origin_title: origin,
    alt_title: r.chance(0.1) ? (zh ? enTitle(r) : zhTitle(r)) : '',
    subtitle: r.chance(0.2) ? r.pick(SUBTITLES) : '',
    image: `${COVERS}/s/${id}.jpg`,
    images: { small: `${COVERS}/s/${id}.jpg`, medium: `${COVERS}/m/${id}.jpg`, large: `${COVERS}/l/${id}.jpg` },
    author,
    translator,
    publisher: r.pick(zh ? ZH_PUBLISHERS : EN_PUBLISHERS),
    pubdate: pubdate(r),
    rating: rating(r),
    tags: tags(r, zh, seed.fixedTags),
    binding: zh ? r.pick(['平装', '精装', '平装']) : r.pick(['Paperback', 'Hardcover', 'Paperback']),
    price: zh ? `${r.int(15, 128)}.${r.pick(['00', '80', '50', '90'])}元` : `USD ${r.int(8, 45)}.${r.pick(['00', '95', '99'])}`,
    ...(seed.series ? { series: seed.series } : {}),
    pages: String(pages),
    author_intro: zh ? `${author[0]}，${r.int(1930, 1995)}年生，${prose(r, 2)}` : `${author[0]} was born in ${r.int(1930, 1995)}. ${prose(r, 2)}`,
    summary: prose(r, r.int(3, 7)),
    catalog: Array.from({ length: r.int(3, 8) }, (_, i) => (zh ? `第${i + 1}章 ${zhTitle(r)}` : `Chapter ${i + 1}: ${enTitle(r)}`)).join('\n'),
    ...(hasEbook ? { ebook_url: `https://read.plaza.example/ebook/${id}/`, ebook_price: `${r.int(3, 30)}.99` } : {}),
  };
}

/**
 * The book part of the demo catalogue (docs/api/import.md kinds `series` and `book`):
 * `size.books` books, about one in ten in a series, Chinese and English titles and names, with
 * ratings and tags shaped like a real catalogue's (a long tail of raters, tag counts falling off).
 */
export const bookGenerator: AreaGenerator = function* (random, size) {
  const total = Math.max(0, size.books);
  const seeds: BookSeed[] = [];
  let nextId = DEMO_BOOK_ID_START;
  const newId = () => String(nextId++);

  for (const c of CLASSICS.slice(0, total)) {
    seeds.push({ id: newId(), title: c.title, zh: c.zh, author: [c.author], origin_title: c.origin ?? '', translator: c.translator ? [c.translator] : [], fixedTags: c.tags });
  }

  // series: 2 to 6 volumes each, about a tenth of the catalogue
  const seriesRecords: CatalogueRecord[] = [];
  const seriesCount = Math.floor(total / 60);
  for (let s = 0; s < seriesCount && seeds.length < total; s++) {
    const zh = random.chance(0.6);
    const base = zh ? zhTitle(random) : enTitle(random);
    const series = { id: String(DEMO_SERIES_ID_START + s), title: zh ? `${base}系列` : `${base.startsWith('The ') ? base : `The ${base}`} Series` };
    seriesRecords.push({ kind: 'series', ...series });
    const author = [zh ? zhName(random) : enName(random)];
    const volumes = random.int(2, 6);
    for (let v = 1; v <= volumes && seeds.length < total; v++) {
      seeds.push({ id: newId(), title: zh ? `${base}（第${v}卷）` : `${base}, Volume ${v}`, zh, author, series });
    }
  }

  while (seeds.length < total) {
    const zh = random.chance(0.65);
    seeds.push({ id: newId(), title: zh ? zhTitle(random) : enTitle(random), zh });
  }

  yield* seriesRecords;
  for (const seed of seeds) yield bookRecord(random, seed);
};
