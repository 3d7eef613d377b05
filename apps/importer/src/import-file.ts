import { ImportKind, ImportKindOwners, ImportLine, importBatchMessage, ServiceName } from '@plaza/contracts';
import { ServiceBus } from '@plaza/platform';
import { inImportOrder, LineProblem, readRecords } from './read-records';

export interface ImportSummary {
  loaded: Record<string, number>;
  problems: LineProblem[];
}

const BATCH_SIZE = 200;

/**
 * Sends every record to the service that owns its kind, in dependency order, in batches.
 * Upserts by id on the service side make a second run change nothing.
 */
export async function importFile(path: string, bus: ServiceBus, onProgress: (text: string) => void = () => undefined): Promise<ImportSummary> {
  const { lines, problems } = await readRecords(path);
  const loaded: Record<string, number> = {};
  const ordered = inImportOrder(lines);
  let i = 0;
  while (i < ordered.length) {
    // a batch holds consecutive records of one kind, so order between kinds is kept
    const kind = ordered[i].kind as ImportKind;
    const batch: ImportLine[] = [];
    while (i < ordered.length && ordered[i].kind === kind && batch.length < BATCH_SIZE) batch.push(ordered[i++]);
    const service: ServiceName = ImportKindOwners[kind];
    const { results } = await bus.request(importBatchMessage(service), { lines: batch }, { timeout: 120_000 });
    for (const r of results) {
      if (r.ok) loaded[kind] = (loaded[kind] ?? 0) + 1;
      else problems.push({ line: r.line, error: `${kind}: ${r.error ?? 'rejected'}` });
    }
    onProgress(`${kind}: ${loaded[kind] ?? 0}`);
  }
  problems.sort((a, b) => a.line - b.line);
  return { loaded, problems };
}
