import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ImportBatch, importBatchMessage } from '@plaza/contracts';
import { CacheInvalidator, ImportKindHandler, runImportBatch } from '@plaza/platform';
import { BookImporter } from './book-importer';
import { BookImportRecord, SeriesImportRecord } from './book-import.records';
import { USER_CONTENT_KINDS, UserContentImporter } from './user-content.importer';

/** `npm run import` sends the `book` and `series` records here (docs/api/import.md). */
@Controller()
export class BookImportController {
  private readonly handlers: Record<string, ImportKindHandler<object>>;

  constructor(
    private readonly importer: BookImporter,
    private readonly cache: CacheInvalidator,
    private readonly userContent: UserContentImporter,
  ) {
    this.handlers = {
      book: { record: BookImportRecord, upsert: (r) => this.importer.importBook(r as BookImportRecord) },
      series: { record: SeriesImportRecord, upsert: (r) => this.importer.importSeries(r as SeriesImportRecord) },
    };
  }

  @MessagePattern(importBatchMessage('book').subject)
  async batch(@Payload() batch: ImportBatch) {
    // from the file's first batch (its series and books come first), before anything is written
    await this.userContent.reserveIds(batch);
    // users' collections, reviews and annotations: their books' aggregates are corrected after the batch
    if (batch.lines.some((l) => USER_CONTENT_KINDS.has(l.kind))) return this.userContent.importBatch(batch, this.handlers);
    // several records at once: most of an upsert is waiting for the database
    const result = await runImportBatch(batch, this.handlers, 8);
    this.cache.areas('book');
    return result;
  }
}
