import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ImportBatch, ImportBatchResult, importBatchMessage } from '@plaza/contracts';
import { NoteImporter } from './note-importer';

/** Loads `note`, `note_comment` and `note_like` records (docs/api/import.md); idempotent. */
@Controller()
export class NoteImportController {
  constructor(private readonly importer: NoteImporter) {}

  @MessagePattern(importBatchMessage('note').subject)
  batch(@Payload() batch: ImportBatch): Promise<ImportBatchResult> {
    return this.importer.importBatch(batch);
  }
}
