import type {
  Book, BookList, CelebrityPhotosPage, EventList, EventView, LocView, MovieCelebrity, MoviePhoto, MoviePhotoView, MovieReview, MovieSubject, Note, Review, ReviewList,
  SimpleCelebrity, SimpleSubject, SubjectPhotosPage, UserProfile,
} from '@plaza/contracts';
import { esc, facts, httpAddress, langAttr, languageOf, pageShell, paragraphs } from './web-html';

/** Where pages live: `web` the absolute PUBLIC_WEB_URL (no trailing slash), `base` its path on this host. */
export interface WebSite {
  web: string;
  base: string;
}

type Lang = 'zh-CN' | 'en';

const LABELS = {
  'zh-CN': {
    author: '作者', translator: '译者', publisher: '出版社', pubdate: '出版年', pages: '页数', price: '定价', binding: '装帧', isbn: 'ISBN',
    series: '丛书', rating: '评分', raters: '人评价', summary: '内容简介', authorIntro: '作者简介', catalog: '目录', reviews: '书评',
    seriesBooks: '同一丛书', noReviews: '还没有书评。', moreReviews: '共 {n} 篇书评', book: '书', review: '书评', by: '作者',
    director: '导演', writer: '编剧', cast: '主演', genres: '类型', countries: '制片国家/地区', year: '年份', languages: '语言',
    durations: '片长', aka: '又名', popularReviews: '热门影评', works: '作品', gender: '性别', birthday: '出生日期', bornPlace: '出生地',
    professions: '职业', begin: '开始时间', end: '结束时间', city: '城市', address: '地点', owner: '发起人', category: '类型',
    participants: '人参加', wishers: '人感兴趣', attendance: '参与', events: '同城活动', noEvents: '暂无活动。', published: '发表于', updated: '更新于',
    joined: '加入于', notFound: '页面不存在', notFoundText: '你要找的内容不存在，或已被删除。', forbidden: '无权查看',
    forbiddenText: '这篇日记不公开。', unavailable: '暂时无法显示', unavailableText: '服务暂时不可用，请稍后再试。', photo: '图片',
    likes: '人喜欢', comments: '条回应', signature: '签名', movie: '电影', photos: '照片', poster: '海报', avatar: '头像',
    celebrity: '影人', album: '相册', noPhotos: '还没有照片。', allPhotos: '全部 {n} 张', previous: '上一张', next: '下一张', place: '第 {i} 张，共 {n} 张',
    replies: '回应', seriesNamed: '丛书 {id}', noBooks: '这套丛书还没有书。', subjectAlbum: '{name}的剧照', celebrityAlbum: '{name}的照片',
  },
  en: {
    author: 'Author', translator: 'Translator', publisher: 'Publisher', pubdate: 'Published', pages: 'Pages', price: 'Price', binding: 'Binding',
    isbn: 'ISBN', series: 'Series', rating: 'Rating', raters: 'ratings', summary: 'Summary', authorIntro: 'About the author', catalog: 'Contents',
    reviews: 'Reviews', seriesBooks: 'In the same series', noReviews: 'No reviews yet.', moreReviews: '{n} reviews in all', book: 'Book',
    review: 'Review', by: 'By', director: 'Director', writer: 'Writer', cast: 'Cast', genres: 'Genres', countries: 'Countries', year: 'Year',
    languages: 'Languages', durations: 'Running time', aka: 'Also known as', popularReviews: 'Popular reviews', works: 'Works', gender: 'Gender',
    birthday: 'Born', bornPlace: 'Birthplace', professions: 'Professions', begin: 'Starts', end: 'Ends', city: 'City', address: 'Where',
    owner: 'Organiser', category: 'Category', participants: 'going', wishers: 'interested', attendance: 'Attendance', events: 'Events in this city',
    noEvents: 'No upcoming events.', published: 'Published', updated: 'Updated', joined: 'Joined', notFound: 'Not found',
    notFoundText: 'There is nothing at this address, or it was deleted.', forbidden: 'Not public', forbiddenText: 'This note is not public.',
    unavailable: 'Unavailable', unavailableText: 'The service is unavailable for a moment; please try again.', photo: 'Picture',
    likes: 'likes', comments: 'comments', signature: 'Signature', movie: 'Movie', photos: 'Photos', poster: 'Poster', avatar: 'Avatar',
    celebrity: 'Celebrity', album: 'Album', noPhotos: 'No photos yet.', allPhotos: 'All {n} photos', previous: 'Previous', next: 'Next', place: '{i} of {n}',
    replies: 'Comments', seriesNamed: 'Series {id}', noBooks: 'This series has no books yet.', subjectAlbum: 'Photos of {name}', celebrityAlbum: 'Photos of {name}',
  },
} as const;

const labels = (lang: Lang) => LABELS[lang];

/** Addresses of pages on this site, by record id. */
export const pagePaths = {
  book: (id: string) => `/book/subject/${id}/`,
  bookReview: (id: string | number) => `/book/review/${id}/`,
  series: (id: string) => `/book/series/${id}/`,
  movie: (id: string) => `/movie/subject/${id}/`,
  movieReview: (id: string) => `/movie/review/${id}/`,
  celebrity: (id: string) => `/movie/celebrity/${id}/`,
  photo: (id: string) => `/movie/photos/photo/${id}/`,
  subjectPhotos: (id: string) => `/movie/subject/${id}/photos/`,
  celebrityPhotos: (id: string) => `/movie/celebrity/${id}/photos/`,
  event: (id: string) => `/event/${id}/`,
  loc: (id: string) => `/loc/${id}/`,
  note: (id: string) => `/note/${id}/`,
  user: (uid: string) => `/people/${uid}/`,
};

function link(site: WebSite, path: string, text: string, pageLang: Lang): string {
  return `<a href="${esc(site.base + path)}"${langAttr(text, pageLang)}>${esc(text)}</a>`;
}

const join = (items: string[]) => items.join(' / ');

function userLink(site: WebSite, user: { uid: string; name: string } | undefined, lang: Lang): string {
  if (!user || !user.uid) return esc(user?.name ?? '');
  return link(site, pagePaths.user(user.uid), user.name || user.uid, lang);
}

function cover(src: string | undefined, alt: string, lang: Lang): string {
  const address = httpAddress(src);
  return address ? `<img class="cover" src="${esc(address)}" alt="${esc(alt)}"${langAttr(alt, lang)} loading="lazy">` : '';
}

function heading(text: string, lang: Lang): string {
  return `<h1${langAttr(text, lang)}>${esc(text)}</h1>`;
}

// ---- books ----

export function bookPage(site: WebSite, book: Book, reviews: ReviewList | undefined, series: BookList | undefined): string {
  const lang = languageOf(book.title, book.summary, book.author.join(''));
  const l = labels(lang);
  const url = site.web + pagePaths.book(book.id);
  const rating = book.rating.numRaters > 0 ? `${esc(book.rating.average)} / 10 (${book.rating.numRaters} ${l.raters})` : undefined;
  const body = [
    heading(book.title, lang),
    book.subtitle ? `<p class="meta"${langAttr(book.subtitle, lang)}>${esc(book.subtitle)}</p>` : '',
    `<div class="record">${cover(book.images.large || book.image, book.title, lang)}<div class="facts">${facts([
      [l.author, esc(join(book.author))],
      [l.translator, esc(join(book.translator))],
      [l.publisher, esc(book.publisher)],
      [l.pubdate, esc(book.pubdate)],
      [l.pages, esc(book.pages)],
      [l.price, esc(book.price)],
      [l.binding, esc(book.binding)],
      [l.series, book.series ? link(site, pagePaths.series(book.series.id), book.series.title || book.series.id, lang) : undefined],
      [l.isbn, esc(book.isbn13 || book.isbn10)],
      [l.rating, rating],
    ])}</div></div>`,
    book.summary ? `<h2>${l.summary}</h2><div class="prose">${paragraphs(book.summary)}</div>` : '',
    book.author_intro ? `<h2>${l.authorIntro}</h2><div class="prose">${paragraphs(book.author_intro)}</div>` : '',
    book.catalog ? `<h2>${l.catalog}</h2><div class="prose">${paragraphs(book.catalog)}</div>` : '',
    reviewsSection(site, reviews, lang),
    seriesSection(site, series, book.id, lang),
  ].join('\n');
  return pageShell(
    {
      title: book.title, lang, url, description: book.summary, image: httpAddress(book.images.large || book.image), ogType: 'book',
      ld: {
        '@context': 'https://schema.org', '@type': 'Book', name: book.title, url,
        ...(book.author.length ? { author: book.author.map((name) => ({ '@type': 'Person', name })) } : {}),
        ...(book.translator.length ? { translator: book.translator.map((name) => ({ '@type': 'Person', name })) } : {}),
        ...(book.isbn13 || book.isbn10 ? { isbn: book.isbn13 || book.isbn10 } : {}),
        ...(book.publisher ? { publisher: { '@type': 'Organization', name: book.publisher } } : {}),
        ...(book.pubdate ? { datePublished: book.pubdate } : {}),
        ...(book.pages && /^\d+$/.test(book.pages) ? { numberOfPages: Number(book.pages) } : {}),
        ...(httpAddress(book.image) ? { image: book.image } : {}),
        ...(book.summary ? { description: book.summary } : {}),
        ...(book.series ? { isPartOf: { '@type': 'BookSeries', name: book.series.title, url: site.web + pagePaths.series(book.series.id) } } : {}),
        inLanguage: lang,
        ...(book.rating.numRaters > 0
          ? { aggregateRating: { '@type': 'AggregateRating', ratingValue: book.rating.average, bestRating: 10, worstRating: 0, ratingCount: book.rating.numRaters } }
          : {}),
      },
    },
    body,
    site.base + '/',
  );
}

function reviewsSection(site: WebSite, reviews: ReviewList | undefined, lang: Lang): string {
  if (!reviews) return '';
  const l = labels(lang);
  if (reviews.reviews.length === 0) return `<h2>${l.reviews}</h2><p>${l.noReviews}</p>`;
  const items = reviews.reviews
    .map((r) => `<li>${link(site, pagePaths.bookReview(r.id), r.title, lang)} <span class="meta">${esc(r.author.name)} · ${esc(r.published)}</span>${r.summary ? `<br><span${langAttr(r.summary, lang)}>${esc(r.summary)}</span>` : ''}</li>`)
    .join('');
  const more = reviews.total > reviews.reviews.length ? `<p class="meta">${esc(l.moreReviews.replace('{n}', String(reviews.total)))}</p>` : '';
  return `<h2>${l.reviews}</h2><ul class="items">${items}</ul>${more}`;
}

function seriesSection(site: WebSite, series: BookList | undefined, currentId: string, lang: Lang): string {
  const others = series?.books.filter((b) => b.id !== currentId) ?? [];
  if (others.length === 0) return '';
  const items = others.map((b) => `<li>${link(site, pagePaths.book(b.id), b.title, lang)}${b.pubdate ? ` <span class="meta">${esc(b.pubdate)}</span>` : ''}</li>`).join('');
  return `<h2>${labels(lang).seriesBooks}</h2><ul class="items">${items}</ul>`;
}

/**
 * A series: its books (the `series.id` a book links to). A series without books is a page too; its
 * title is only known from its books (the service's list carries none), so it is named by its id.
 */
export function seriesPage(site: WebSite, id: string, series: BookList): string {
  const named = series.books.find((b) => b.series?.id === id)?.series?.title;
  const lang = languageOf(named, ...series.books.map((b) => b.title));
  const l = labels(lang);
  const title = named || l.seriesNamed.replace('{id}', id);
  const items = series.books.map((b) => `<li>${link(site, pagePaths.book(b.id), b.title, lang)} <span class="meta">${esc(join(b.author))}</span></li>`).join('');
  const url = site.web + pagePaths.series(id);
  return pageShell(
    { title, lang, url, ogType: 'website', ld: { '@context': 'https://schema.org', '@type': 'BookSeries', name: title, url, hasPart: series.books.map((b) => ({ '@type': 'Book', name: b.title, url: site.web + pagePaths.book(b.id) })) } },
    `${heading(title, lang)}${items ? `<ul class="items">${items}</ul>` : `<p>${l.noBooks}</p>`}`,
    site.base + '/',
  );
}

export function bookReviewPage(site: WebSite, review: Review): string {
  const content = review.content ?? review.summary ?? '';
  const lang = languageOf(review.title, content);
  const l = labels(lang);
  const url = site.web + pagePaths.bookReview(review.id);
  const rating = review.rating ? `${esc(review.rating.value)} / ${review.rating.max}` : undefined;
  const body = [
    heading(review.title, lang),
    facts([
      [l.book, link(site, pagePaths.book(review.book.id), review.book.title, lang)],
      [l.by, userLink(site, review.author, lang)],
      [l.rating, rating],
      [l.published, esc(review.published)],
    ]),
    `<div class="prose">${paragraphs(content)}</div>`,
  ].join('\n');
  return pageShell(
    {
      title: review.title, lang, url, description: content, ogType: 'article',
      ld: {
        '@context': 'https://schema.org', '@type': 'Review', name: review.title, url, reviewBody: content, datePublished: review.published,
        author: { '@type': 'Person', name: review.author.name || review.author.uid },
        itemReviewed: { '@type': 'Book', name: review.book.title, url: site.web + pagePaths.book(review.book.id) },
        ...(review.rating ? { reviewRating: { '@type': 'Rating', ratingValue: review.rating.value, bestRating: review.rating.max, worstRating: review.rating.min } } : {}),
      },
    },
    body,
    site.base + '/',
  );
}

// ---- movies ----

function celebrities(site: WebSite, list: SimpleCelebrity[] | undefined, lang: Lang): string | undefined {
  if (!list || list.length === 0) return undefined;
  return list.map((c) => link(site, pagePaths.celebrity(c.id), c.name, lang)).join(' / ');
}

/** A photo's text: its description, else its place in its album. */
function photoText(photo: MoviePhoto, lang: Lang): string {
  return photo.desc || `${labels(lang).photo} ${photo.position}`;
}

/** Photos as thumbnails, each linked to its page (a photo without an http(s) thumbnail is linked by its text). */
function photoGrid(site: WebSite, photos: MoviePhoto[], lang: Lang): string {
  const items = photos.map((p) => {
    const thumb = httpAddress(p.thumb || p.cover || p.image);
    const text = photoText(p, lang);
    const inner = thumb ? `<img src="${esc(thumb)}" alt="${esc(text)}"${langAttr(text, lang)} loading="lazy">` : `<span${langAttr(text, lang)}>${esc(text)}</span>`;
    return `<li><a href="${esc(site.base + pagePaths.photo(p.id))}">${inner}</a></li>`;
  });
  return `<ul class="photos">${items.join('')}</ul>`;
}

/** The first photos of an album (a subject's or celebrity's `photos`) and a link to all of them. */
function photosSection(site: WebSite, photos: MoviePhoto[] | undefined, albumPath: string, lang: Lang): string {
  if (!photos || photos.length === 0) return '';
  const l = labels(lang);
  const total = Math.max(photos.length, photos[0].photos_count);
  return `<h2>${l.photos}</h2>${photoGrid(site, photos, lang)}<p>${link(site, albumPath, l.allPhotos.replace('{n}', String(total)), lang)}</p>`;
}

export function movieSubjectPage(site: WebSite, subject: MovieSubject): string {
  const lang = languageOf(subject.title, subject.summary);
  const l = labels(lang);
  const url = site.web + pagePaths.movie(subject.id);
  const title = subject.original_title && subject.original_title !== subject.title ? `${subject.title} ${subject.original_title}` : subject.title;
  const rating = subject.ratings_count > 0 ? `${subject.rating.average.toFixed(1)} / 10 (${subject.ratings_count} ${l.raters})` : undefined;
  const reviews = subject.popular_reviews ?? [];
  const body = [
    heading(title, lang),
    `<div class="record">${cover(subject.images.large, `${l.poster}: ${subject.title}`, lang)}<div class="facts">${facts([
      [l.director, celebrities(site, subject.directors, lang)],
      [l.writer, celebrities(site, subject.writers, lang)],
      [l.cast, celebrities(site, subject.casts, lang)],
      [l.genres, esc(join(subject.genres))],
      [l.countries, esc(join(subject.countries))],
      [l.languages, esc(join(subject.languages ?? []))],
      [l.year, esc(subject.year)],
      [l.durations, esc(join(subject.durations ?? []))],
      [l.aka, esc(join(subject.aka))],
      [l.rating, rating],
    ])}</div></div>`,
    subject.summary ? `<h2>${l.summary}</h2><div class="prose">${paragraphs(subject.summary)}</div>` : '',
    photosSection(site, subject.photos, pagePaths.subjectPhotos(subject.id), lang),
    reviews.length
      ? `<h2>${l.popularReviews}</h2><ul class="items">${reviews
          .map((r) => `<li>${link(site, pagePaths.movieReview(r.id), r.title, lang)} <span class="meta">${userLink(site, r.author, lang)} · ${esc(r.created_at)}</span><br><span${langAttr(r.summary, lang)}>${esc(r.summary)}</span></li>`)
          .join('')}</ul>`
      : '',
  ].join('\n');
  const people = (list: SimpleCelebrity[] | undefined) => (list ?? []).map((c) => ({ '@type': 'Person', name: c.name, url: site.web + pagePaths.celebrity(c.id) }));
  return pageShell(
    {
      title: subject.title, lang, url, description: subject.summary, image: httpAddress(subject.images.large), ogType: subject.subtype === 'tv' ? 'video.tv_show' : 'video.movie',
      ld: {
        '@context': 'https://schema.org', '@type': subject.subtype === 'tv' ? 'TVSeries' : 'Movie', name: subject.title, url,
        ...(subject.original_title ? { alternateName: subject.original_title } : {}),
        director: people(subject.directors), actor: people(subject.casts),
        ...(subject.writers?.length ? { author: people(subject.writers) } : {}),
        ...(subject.genres.length ? { genre: subject.genres } : {}),
        ...(subject.countries.length ? { countryOfOrigin: subject.countries.map((name) => ({ '@type': 'Country', name })) } : {}),
        ...(subject.year ? { dateCreated: subject.year } : {}),
        ...(httpAddress(subject.images.large) ? { image: subject.images.large } : {}),
        ...(subject.summary ? { description: subject.summary } : {}),
        ...(subject.ratings_count > 0
          ? { aggregateRating: { '@type': 'AggregateRating', ratingValue: subject.rating.average, bestRating: 10, worstRating: 0, ratingCount: subject.ratings_count } }
          : {}),
      },
    },
    body,
    site.base + '/',
  );
}

export function celebrityPage(site: WebSite, celebrity: MovieCelebrity): string {
  const lang = languageOf(celebrity.name, celebrity.summary);
  const l = labels(lang);
  const url = site.web + pagePaths.celebrity(celebrity.id);
  const title = celebrity.name_en && celebrity.name_en !== celebrity.name ? `${celebrity.name} ${celebrity.name_en}` : celebrity.name;
  const body = [
    heading(title, lang),
    `<div class="record">${cover(celebrity.avatars.large, `${l.avatar}: ${celebrity.name}`, lang)}<div class="facts">${facts([
      [l.gender, esc(celebrity.gender)],
      [l.birthday, esc(celebrity.birthday)],
      [l.bornPlace, esc(celebrity.born_place)],
      [l.professions, esc(join(celebrity.professions ?? []))],
      [l.aka, esc(join([...celebrity.aka, ...celebrity.aka_en]))],
    ])}</div></div>`,
    celebrity.summary ? `<h2>${l.summary}</h2><div class="prose">${paragraphs(celebrity.summary)}</div>` : '',
    celebrity.works.length
      ? `<h2>${l.works}</h2><ul class="items">${celebrity.works.map((w) => `<li>${link(site, pagePaths.movie(w.id), w.title, lang)}${w.year ? ` <span class="meta">${esc(w.year)}</span>` : ''}</li>`).join('')}</ul>`
      : '',
    photosSection(site, celebrity.photos, pagePaths.celebrityPhotos(celebrity.id), lang),
  ].join('\n');
  return pageShell(
    {
      title: celebrity.name, lang, url, description: celebrity.summary, image: httpAddress(celebrity.avatars.large), ogType: 'profile',
      ld: {
        '@context': 'https://schema.org', '@type': 'Person', name: celebrity.name, url,
        ...(celebrity.name_en ? { alternateName: celebrity.name_en } : {}),
        ...(celebrity.birthday ? { birthDate: celebrity.birthday } : {}),
        ...(celebrity.born_place ? { birthPlace: celebrity.born_place } : {}),
        ...(celebrity.professions?.length ? { jobTitle: celebrity.professions } : {}),
        ...(httpAddress(celebrity.avatars.large) ? { image: celebrity.avatars.large } : {}),
        ...(celebrity.summary ? { description: celebrity.summary } : {}),
      },
    },
    body,
    site.base + '/',
  );
}

/** A movie review: its text as loaded (the lists cut it to 100 characters), its movie and author linked. */
export function movieReviewPage(site: WebSite, review: MovieReview, subject: { id: string; title: string }): string {
  const lang = languageOf(review.title, review.summary);
  const l = labels(lang);
  const url = site.web + pagePaths.movieReview(review.id);
  const rating = review.rating.value > 0 ? `${esc(review.rating.value)} / ${review.rating.max}` : undefined;
  const body = [
    heading(review.title, lang),
    facts([
      [l.movie, link(site, pagePaths.movie(subject.id), subject.title, lang)],
      [l.by, userLink(site, review.author, lang)],
      [l.rating, rating],
      [l.published, esc(review.created_at)],
    ]),
    `<div class="prose">${paragraphs(review.summary)}</div>`,
  ].join('\n');
  return pageShell(
    {
      title: review.title, lang, url, description: review.summary, ogType: 'article',
      ld: {
        '@context': 'https://schema.org', '@type': 'Review', name: review.title, url, reviewBody: review.summary, datePublished: review.created_at,
        author: { '@type': 'Person', name: review.author.name || review.author.uid },
        itemReviewed: { '@type': 'Movie', name: subject.title, url: site.web + pagePaths.movie(subject.id) },
        ...(review.rating.value > 0 ? { reviewRating: { '@type': 'Rating', ratingValue: review.rating.value, bestRating: review.rating.max, worstRating: review.rating.min } } : {}),
      },
    },
    body,
    site.base + '/',
  );
}

/** Whose album a photo or an album is: a subject's or a celebrity's. */
interface AlbumOwner {
  name: string;
  path: string;
  albumPath: string;
  albumTitle: string;
  kindLabel: string;
  ld: { '@type': string; name: string; url: string };
}

// names go in through a function: a `$&` in a title is text, not a replacement pattern
function albumOwner(site: WebSite, owner: { subject?: SimpleSubject; celebrity?: SimpleCelebrity }, lang: Lang): AlbumOwner | undefined {
  const l = labels(lang);
  if (owner.subject) {
    const { id, title, subtype } = owner.subject;
    return {
      name: title, path: pagePaths.movie(id), albumPath: pagePaths.subjectPhotos(id), albumTitle: l.subjectAlbum.replace('{name}', () => title), kindLabel: l.movie,
      ld: { '@type': subtype === 'tv' ? 'TVSeries' : 'Movie', name: title, url: site.web + pagePaths.movie(id) },
    };
  }
  if (owner.celebrity) {
    const { id, name } = owner.celebrity;
    return {
      name, path: pagePaths.celebrity(id), albumPath: pagePaths.celebrityPhotos(id), albumTitle: l.celebrityAlbum.replace('{name}', () => name), kindLabel: l.celebrity,
      ld: { '@type': 'Person', name, url: site.web + pagePaths.celebrity(id) },
    };
  }
  return undefined;
}

/** A movie or celebrity photo (the photo's `alt`): the picture, its album and owner, its neighbours in the album. */
export function photoPage(site: WebSite, view: MoviePhotoView): string {
  const { photo } = view;
  const ownerName = view.subject?.title ?? view.celebrity?.name;
  const lang = languageOf(photo.desc, photo.album_title, ownerName);
  const l = labels(lang);
  const owner = albumOwner(site, view, lang);
  const url = site.web + pagePaths.photo(photo.id);
  const title = photo.desc || `${photo.album_title || owner?.albumTitle || l.photo} ${photo.position}`;
  const image = httpAddress(photo.image || photo.cover || photo.thumb);
  const place = l.place.replace('{i}', String(photo.position)).replace('{n}', String(photo.photos_count));
  const neighbours = [
    photo.prev_photo ? link(site, pagePaths.photo(photo.prev_photo), l.previous, lang) : '',
    photo.next_photo ? link(site, pagePaths.photo(photo.next_photo), l.next, lang) : '',
  ].filter(Boolean);
  const body = [
    heading(title, lang),
    image ? `<figure class="photo"><img src="${esc(image)}" alt="${esc(title)}"${langAttr(title, lang)}></figure>` : '',
    facts([
      [owner?.kindLabel ?? l.movie, owner ? link(site, owner.path, owner.name, lang) : undefined],
      [l.album, owner ? `${link(site, owner.albumPath, photo.album_title || owner.albumTitle, lang)} <span class="meta">${esc(place)}</span>` : esc(place)],
      [l.by, userLink(site, photo.author, lang)],
      [l.published, esc(photo.created_at)],
      [l.replies, photo.comments_count > 0 ? esc(photo.comments_count) : undefined],
    ]),
    neighbours.length ? `<p class="pager">${neighbours.join(' · ')}</p>` : '',
  ].join('\n');
  return pageShell(
    {
      title, lang, url, description: photo.desc, image, ogType: 'website',
      ld: {
        '@context': 'https://schema.org', '@type': 'ImageObject', name: title, url,
        ...(image ? { contentUrl: image } : {}),
        ...(httpAddress(photo.thumb) ? { thumbnailUrl: photo.thumb } : {}),
        ...(photo.desc ? { caption: photo.desc } : {}),
        ...(photo.created_at ? { uploadDate: photo.created_at } : {}),
        ...(photo.author?.name || photo.author?.uid ? { author: { '@type': 'Person', name: photo.author.name || photo.author.uid } } : {}),
        ...(owner ? { about: owner.ld, isPartOf: { '@type': 'ImageGallery', name: photo.album_title || owner.albumTitle, url: site.web + owner.albumPath } } : {}),
      },
    },
    body,
    site.base + '/',
  );
}

/** A subject's or celebrity's photos (their `album_url`): thumbnails linked to the photos' pages, oldest first. */
export function albumPage(site: WebSite, album: SubjectPhotosPage | CelebrityPhotosPage): string {
  const ownerOf = 'subject' in album ? { subject: album.subject } : { celebrity: album.celebrity };
  const lang = languageOf(ownerOf.subject?.title ?? ownerOf.celebrity?.name, ...album.photos.map((p) => p.desc));
  const l = labels(lang);
  const owner = albumOwner(site, ownerOf, lang) as AlbumOwner;
  const url = site.web + owner.albumPath;
  const more = album.total > album.photos.length ? `<p class="meta">${esc(l.allPhotos.replace('{n}', String(album.total)))}</p>` : '';
  const body = [
    heading(owner.albumTitle, lang),
    `<p>${link(site, owner.path, owner.name, lang)}</p>`,
    album.photos.length ? photoGrid(site, album.photos, lang) + more : `<p>${l.noPhotos}</p>`,
  ].join('\n');
  return pageShell(
    {
      title: owner.albumTitle, lang, url, image: httpAddress(album.photos[0]?.image), ogType: 'website',
      ld: {
        '@context': 'https://schema.org', '@type': 'ImageGallery', name: owner.albumTitle, url, about: owner.ld,
        hasPart: album.photos.map((p) => ({ '@type': 'ImageObject', name: photoText(p, lang), url: site.web + pagePaths.photo(p.id) })),
      },
    },
    body,
    site.base + '/',
  );
}

// ---- events and cities ----

/** `yyyy-MM-dd HH:mm:ss` in the service's zone → ISO 8601 with that zone's offset (Asia/Shanghai: +08:00). */
export function isoTime(time: string, offset: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(time);
  return m ? `${m[1]}T${m[2]}${offset}` : undefined;
}

export function eventPage(site: WebSite, event: EventView, zoneOffset: string): string {
  const lang = languageOf(event.title, event.content);
  const l = labels(lang);
  const url = site.web + pagePaths.event(event.id);
  const body = [
    heading(event.title, lang),
    `<div class="record">${cover(event.image, event.title, lang)}<div class="facts">${facts([
      [l.begin, esc(event.begin_time)],
      [l.end, esc(event.end_time)],
      [l.city, event.loc_id ? link(site, pagePaths.loc(event.loc_id), event.loc_name || event.loc_id, lang) : undefined],
      [l.address, esc(event.address)],
      [l.category, esc(event.category_name)],
      [l.owner, userLink(site, event.owner, lang)],
      [l.attendance, `${event.participant_count} ${l.participants} · ${event.wisher_count} ${l.wishers}`],
    ])}</div></div>`,
    event.content ? `<h2>${l.summary}</h2><div class="prose">${paragraphs(event.content)}</div>` : '',
  ].join('\n');
  const start = isoTime(event.begin_time, zoneOffset);
  const end = isoTime(event.end_time, zoneOffset);
  return pageShell(
    {
      title: event.title, lang, url, description: event.content, image: httpAddress(event.image), ogType: 'website',
      ld: {
        '@context': 'https://schema.org', '@type': 'Event', name: event.title, url,
        ...(start ? { startDate: start } : {}),
        ...(end ? { endDate: end } : {}),
        eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
        location: {
          '@type': 'Place', name: event.address || event.loc_name,
          address: { '@type': 'PostalAddress', streetAddress: event.address, addressLocality: event.loc_name },
          ...(/^-?[\d.]+ -?[\d.]+$/.test(event.geo) ? { geo: { '@type': 'GeoCoordinates', latitude: Number(event.geo.split(' ')[0]), longitude: Number(event.geo.split(' ')[1]) } } : {}),
        },
        ...(event.owner?.name ? { organizer: { '@type': 'Person', name: event.owner.name, url: site.web + pagePaths.user(event.owner.uid) } } : {}),
        ...(httpAddress(event.image) ? { image: event.image } : {}),
        ...(event.content ? { description: event.content } : {}),
      },
    },
    body,
    site.base + '/',
  );
}

export function cityPage(site: WebSite, loc: LocView, events: EventList | undefined): string {
  const lang = languageOf(loc.name);
  const l = labels(lang);
  const url = site.web + pagePaths.loc(loc.id);
  const list = events?.events ?? [];
  const body = [
    heading(loc.name, lang),
    `<h2>${l.events}</h2>`,
    list.length
      ? `<ul class="items">${list.map((e) => `<li>${link(site, pagePaths.event(e.id), e.title, lang)} <span class="meta">${esc(e.begin_time)}</span></li>`).join('')}</ul>`
      : `<p>${l.noEvents}</p>`,
  ].join('\n');
  return pageShell({ title: loc.name, lang, url, ogType: 'website', ld: { '@context': 'https://schema.org', '@type': 'City', name: loc.name, url } }, body, site.base + '/');
}

// ---- notes and users ----

/** A public note; its content is the API's `html_full` format as is (built from escaped text only). */
export function notePage(site: WebSite, note: Note): string {
  const lang = languageOf(note.title, note.summary);
  const l = labels(lang);
  const url = site.web + pagePaths.note(note.id);
  const body = [
    heading(note.title, lang),
    `<p class="meta">${userLink(site, note.author, lang)} · ${esc(note.publish_time)} · ${note.liked_count} ${l.likes} · ${note.comments_count} ${l.comments}</p>`,
    `<article class="prose">${note.content}</article>`,
  ].join('\n');
  return pageShell(
    {
      title: note.title, lang, url, description: note.summary, ogType: 'article',
      ld: {
        '@context': 'https://schema.org', '@type': 'BlogPosting', headline: note.title, url, datePublished: note.publish_time, dateModified: note.update_time,
        author: { '@type': 'Person', name: note.author.name || note.author.uid, url: site.web + pagePaths.user(note.author.uid) }, description: note.summary,
      },
    },
    body,
    site.base + '/',
  );
}

export function userPage(site: WebSite, user: UserProfile): string {
  const lang = languageOf(user.name, user.desc, user.signature);
  const l = labels(lang);
  const url = site.web + pagePaths.user(user.uid);
  const body = [
    `<div class="record">${cover(user.avatar, `${l.avatar}: ${user.name}`, lang)}<div class="facts">`,
    heading(user.name || user.uid, lang),
    facts([
      [l.signature, esc(user.signature)],
      [l.city, esc(user.loc_name)],
      [l.joined, esc(user.created)],
    ]),
    '</div></div>',
    user.desc ? `<div class="prose">${paragraphs(user.desc)}</div>` : '',
  ].join('\n');
  return pageShell(
    {
      title: user.name || user.uid, lang, url, description: user.desc || user.signature, image: httpAddress(user.avatar), ogType: 'profile',
      ld: { '@context': 'https://schema.org', '@type': 'Person', name: user.name || user.uid, alternateName: user.uid, url, ...(httpAddress(user.avatar) ? { image: user.avatar } : {}) },
    },
    body,
    site.base + '/',
  );
}

// ---- errors ----

export type PageError = 403 | 404 | 503;

/** A page for a refusal: never blank, in the language of the address's area (Chinese catalogue), with the status it is sent with. */
export function errorPage(site: WebSite, status: PageError, path: string, lang: Lang = 'en'): string {
  const l = labels(lang);
  const [title, text] = status === 404 ? [l.notFound, l.notFoundText] : status === 403 ? [l.forbidden, l.forbiddenText] : [l.unavailable, l.unavailableText];
  return pageShell(
    { title, lang, url: site.web + path, ogType: 'website' },
    `<p class="status">${status}</p>${heading(title, lang)}<p>${esc(text)}</p><p><a href="${esc(site.base + '/')}">Plaza</a></p>`,
    site.base + '/',
  );
}

/** The site's front page: what the addresses are (the records are reached by their `alt`). */
export function homePage(site: WebSite): string {
  return pageShell(
    { title: 'Plaza', lang: 'en', url: site.web + '/', ogType: 'website' },
    `<h1>Plaza</h1><p>Books, movies, events and notes. Every record of the API has its page here, at the address in its <code>alt</code> field.</p>`,
    site.base + '/',
  );
}
