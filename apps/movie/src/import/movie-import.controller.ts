import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ImportBatch, importBatchMessage } from '@plaza/contracts';
import { MovieImportService } from './movie-import.service';

@Controller()
export class MovieImportController {
  constructor(private readonly importer: MovieImportService) {}

  @MessagePattern(importBatchMessage('movie').subject)
  batch(@Payload() batch: ImportBatch) {
    return this.importer.importBatch(batch);
  }
}
