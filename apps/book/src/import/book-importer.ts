import { Injectable } from '@nestjs/common';
import { ChangeFeed } from '@plaza/service-kit';
import { BooksRepository, CatalogueFields } from '../books/books.repository';
import { IsbnsRepository } from '../books/isbns.repository';
import { SeriesRepository } from '../series/series.repository';
import { BookImportRecord, SeriesImportRecord } from './book-import.records';

/**
 * Upserts catalogue records by id: a second run of the same file changes nothing. An import
 * replaces a book's catalogue fields, rating and tags, and keeps what users added on top.
 *
 * Crash safety (docs/ENGINES.md point 3): a book's write is followed by its ISBN index and (MongoDB)
 * its tag ranks; a book imported again unchanged still has both checked and written where they
 * differ (two reads by `_id`, one indexed read), so the same import again completes what a crash
 * between the steps left. A series is renamed in its books before its own title is stored.
 */
@Injectable()
export class BookImporter {
  constructor(
    private readonly books: BooksRepository,
    private readonly isbns: IsbnsRepository,
    private readonly series: SeriesRepository,
    private readonly feed: ChangeFeed,
  ) {}

  /** Each record that changes is one entry of the change feed (docs/api/changes.md); the same record again, none. */
  async importBook(r: BookImportRecord): Promise<void> {
    const seriesTitle = r.series ? r.series.title ?? (await this.series.byId(r.series.id))?.title ?? '' : undefined;
    const fields = catalogueFields(r, seriesTitle);
    await this.feed.record('book', r.id, fields, async () => {
      const previous = await this.books.upsertCatalogue(r.id, fields);
      await this.isbns.index(r.id, [r.isbn10 ?? '', r.isbn13 ?? ''], [previous?.isbn10 ?? '', previous?.isbn13 ?? '']);
    });
  }

  async importSeries(r: SeriesImportRecord): Promise<void> {
    await this.feed.record('series', r.id, { title: r.title }, async () => {
      const previousTitle = (await this.series.byId(r.id))?.title;
      if (previousTitle !== undefined && previousTitle !== r.title) {
        // a book shows its series' title: each renamed book is an update too. The books first, the
        // series last: a crash between leaves the old title stored, so the same import renames the rest
        await this.books.renameSeries(r.id, r.title, (id, write) => this.feed.record('book', id, undefined, write));
      }
      await this.series.upsert(r.id, r.title);
    });
  }
}

export function catalogueFields(r: BookImportRecord, seriesTitle: string | undefined): CatalogueFields {
  const image = r.image ?? r.images?.medium ?? '';
  const images = {
    small: r.images?.small ?? image,
    medium: r.images?.medium ?? image,
    large: r.images?.large ?? image,
  };
  const fields: CatalogueFields = {
    isbn10: r.isbn10 ?? '',
    isbn13: r.isbn13 ?? '',
    title: r.title,
    origin_title: r.origin_title ?? '',
    alt_title: r.alt_title ?? '',
    subtitle: r.subtitle ?? '',
    url: r.url || undefined,
    alt: r.alt || undefined,
    image,
    images,
    author: r.author ?? [],
    translator: r.translator ?? [],
    publisher: r.publisher ?? '',
    pubdate: r.pubdate ?? '',
    binding: r.binding ?? '',
    price: r.price ?? '',
    series: r.series ? { id: r.series.id, title: seriesTitle ?? '' } : undefined,
    pages: r.pages ?? '',
    author_intro: r.author_intro ?? '',
    summary: r.summary ?? '',
    catalog: r.catalog ?? '',
    ebook_url: r.ebook_url || undefined,
    ebook_price: r.ebook_url ? r.ebook_price ?? '' : undefined,
    base_rating: { num: r.rating?.numRaters ?? 0, average: r.rating?.average ?? 0 },
    base_tags: (r.tags ?? []).map((t) => ({ name: t.name.normalize('NFKC').trim(), count: t.count })).filter((t) => t.name),
  };
  return fields;
}
