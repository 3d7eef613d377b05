import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ImportBatch, importBatchMessage } from '@plaza/contracts';
import { CacheInvalidator, ImportKindHandler, runImportBatch } from '@plaza/platform';
import { BookImporter } from './book-importer';
import { BookImportRecord, SeriesImportRecord } from './book-import.records';

/** `npm run import` sends the `book` and `series` records here (docs/api/import.md). */
@Controller()
export class BookImportController {
  private readonly handlers: Record<string, ImportKindHandler<object>>;

  constructor(
    private readonly importer: BookImporter,
    private readonly cache: CacheInvalidator,
  ) {
    this.handlers = {
      book: { record: BookImportRecord, upsert: (r) => this.importer.importBook(r as BookImportRecord) },
      series: { record: SeriesImportRecord, upsert: (r) => this.importer.importSeries(r as SeriesImportRecord) },
    };
  }

  @MessagePattern(importBatchMessage('book').subject)
  async batch(@Payload() batch: ImportBatch) {
    // several records at once: most of an upsert is waiting for the database
    const result = await runImportBatch(batch, this.handlers, 8);
    this.cache.areas('book');
    return result;
  }
}
