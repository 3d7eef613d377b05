import { ApiError, ImportBatch, ImportBatchResult, ImportLineResult } from '@plaza/contracts';
import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { Metrics } from '../observability/metrics';

export interface ImportKindHandler<T extends object> {
  /** The record's shape, validated before `upsert` runs. */
  record: new () => T;
  /** Inserts or replaces by id: importing the same record twice changes nothing. */
  upsert(record: T, line: number): Promise<void>;
}

function describe(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => [
    ...Object.values(e.constraints ?? {}).map((c) => (c.startsWith(e.property) ? `${prefix}${c}` : `${prefix}${e.property}: ${c}`)),
    ...describe(e.children ?? [], `${prefix}${e.property}.`),
  ]);
}

/**
 * Runs one import batch (docs/api/import.md): each line is validated against its kind's record
 * class and upserted; a bad line is reported with its number and does not stop the others.
 */
export async function runImportBatch(
  batch: ImportBatch,
  handlers: Record<string, ImportKindHandler<object>>,
  concurrency = 4,
): Promise<ImportBatchResult> {
  const results: ImportLineResult[] = new Array(batch.lines.length);
  let next = 0;
  const worker = async () => {
    while (next < batch.lines.length) {
      const index = next++;
      const { line, kind, record } = batch.lines[index];
      const handler = Object.hasOwn(handlers, kind) ? handlers[kind] : undefined;
      if (!handler) {
        // the kind is the file's text, not a bounded label: counted as `unknown`
        Metrics.imported('unknown', false);
        results[index] = { line, ok: false, error: `kind ${kind} is not handled by this service` };
        continue;
      }
      try {
        const instance = plainToInstance(handler.record, record);
        const errors = await validate(instance, { whitelist: true, forbidUnknownValues: false });
        if (errors.length > 0) {
          Metrics.imported(kind, false);
          results[index] = { line, ok: false, error: describe(errors).join('; ') };
          continue;
        }
        await handler.upsert(instance, line);
        Metrics.imported(kind, true);
        results[index] = { line, ok: true };
      } catch (err) {
        Metrics.imported(kind, false);
        const message = err instanceof ApiError ? `${err.msg}${err.detail ? `: ${err.detail}` : ''}` : (err as Error).message;
        results[index] = { line, ok: false, error: message };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return { results };
}
