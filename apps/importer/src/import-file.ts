import { ImportKind, ImportKindOwners, ImportLine, importBatchMessage, ImportOrder, ServiceName } from '@plaza/contracts';
import { ServiceBus } from '@plaza/platform';
import { inImportOrder, LineProblem, readRecords } from './read-records';

export interface ImportSummary {
  loaded: Record<string, number>;
  problems: LineProblem[];
}

const BATCH_SIZE = 200;

/**
 * Sends every record to the service that owns its kind, in dependency order, in batches.
 * Identity's kinds go first (the other services resolve users through it); then each service
 * receives its own kinds in order, the services side by side, since they own separate databases.
 * Upserts by id on the service side make a second run change nothing.
 */
export async function importFile(path: string, bus: ServiceBus, onProgress: (text: string) => void = () => undefined): Promise<ImportSummary> {
  const { lines, problems } = await readRecords(path);
  const loaded: Record<string, number> = {};
  const byService = new Map<ServiceName, ImportLine[]>();
  // every kind the file has gets its count, 0 when all its lines failed
  for (const line of lines) loaded[line.kind] = 0;
  for (const line of inImportOrder(lines)) {
    const service = ImportKindOwners[line.kind as ImportKind];
    if (!byService.has(service)) byService.set(service, []);
    byService.get(service)?.push(line);
  }
  const load = async (ordered: ImportLine[]) => {
    let i = 0;
    while (i < ordered.length) {
      // a batch holds consecutive records of one kind, so order between kinds is kept
      const kind = ordered[i].kind as ImportKind;
      const batch: ImportLine[] = [];
      while (i < ordered.length && ordered[i].kind === kind && batch.length < BATCH_SIZE) batch.push(ordered[i++]);
      const { results } = await bus.request(importBatchMessage(ImportKindOwners[kind]), { lines: batch }, { timeout: 120_000 });
      for (const r of results) {
        if (r.ok) loaded[kind] += 1;
        else problems.push({ line: r.line, error: `${kind}: ${r.error ?? 'rejected'}` });
      }
      onProgress(`${kind}: ${loaded[kind]}`);
    }
  };
  await load(byService.get('identity') ?? []);
  await Promise.all([...byService.entries()].filter(([service]) => service !== 'identity').map(([, ordered]) => load(ordered)));
  problems.sort((a, b) => a.line - b.line);
  // counts in import order, whatever order the services finished in
  return { loaded: Object.fromEntries(ImportOrder.filter((k) => k in loaded).map((k) => [k, loaded[k]])), problems };
}
