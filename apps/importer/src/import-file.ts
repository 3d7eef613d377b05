import { ImportKind, ImportKindOwners, ImportLine, importBatchMessage, ImportOrder, largestSequencedIds, ServiceName } from '@plaza/contracts';
import { ServiceBus } from '@plaza/platform';
import { isArchive, readArchive } from './read-archive';
import { inImportOrder, LineProblem, readRecords } from './read-records';

export interface ImportSummary {
  loaded: Record<string, number>;
  problems: LineProblem[];
}

/** A file read and sorted: its records by owning service, in import order, and its unreadable lines. */
export interface ImportPlan {
  byService: Map<ServiceName, ImportLine[]>;
  /** Records to send (lines that parsed, with a known kind). */
  total: number;
  /** Every kind the file has, even if all its lines fail. */
  kinds: string[];
  problems: LineProblem[];
  /** An export archive's pictures by path (docs/api/export.md), stored before the records are sent. */
  pictures?: Map<string, Buffer>;
}

/** Called after each batch with the records done (loaded or rejected) and rejected so far. */
export type ProgressListener = (done: number, failed: number) => void;

const BATCH_SIZE = 200;

export async function planImport(path: string): Promise<ImportPlan> {
  // an export archive (a tar of NDJSON pages and pictures, docs/api/export.md) or an NDJSON file
  const archive = (await isArchive(path)) ? await readArchive(path) : undefined;
  const { lines, problems } = archive ?? (await readRecords(path));
  const byService = new Map<ServiceName, ImportLine[]>();
  for (const line of inImportOrder(lines)) {
    const service = ImportKindOwners[line.kind as ImportKind];
    if (!byService.has(service)) byService.set(service, []);
    byService.get(service)?.push(line);
  }
  return { byService, total: lines.length, kinds: [...new Set(lines.map((l) => l.kind))], problems, ...(archive ? { pictures: archive.pictures } : {}) };
}

/**
 * Sends every record to the service that owns its kind, in dependency order, in batches.
 * Identity's kinds go first (the other services resolve users through it); then each service
 * receives its own kinds in order, the services side by side, since they own separate databases.
 * Upserts by id on the service side make a second run change nothing.
 */
export async function loadPlan(plan: ImportPlan, bus: ServiceBus, onProgress: ProgressListener = () => undefined): Promise<ImportSummary> {
  const loaded: Record<string, number> = {};
  const problems = [...plan.problems];
  // every kind the file has gets its count, 0 when all its lines failed
  for (const kind of plan.kinds) loaded[kind] = 0;
  let done = 0;
  let failed = 0;
  const load = async (ordered: ImportLine[]) => {
    // every batch names the file's largest ids: the service reserves them before its first write
    const idsUpTo = largestSequencedIds(ordered);
    const reserve = Object.keys(idsUpTo).length > 0 ? { idsUpTo } : {};
    let i = 0;
    while (i < ordered.length) {
      // a batch holds consecutive records of one kind, so order between kinds is kept
      const kind = ordered[i].kind as ImportKind;
      const batch: ImportLine[] = [];
      while (i < ordered.length && ordered[i].kind === kind && batch.length < BATCH_SIZE) batch.push(ordered[i++]);
      const { results } = await bus.request(importBatchMessage(ImportKindOwners[kind]), { lines: batch, ...reserve }, { timeout: 120_000 });
      for (const r of results) {
        if (r.ok) loaded[kind] += 1;
        else {
          failed += 1;
          problems.push({ line: r.line, error: `${kind}: ${r.error ?? 'rejected'}` });
        }
      }
      done += batch.length;
      onProgress(done, failed);
    }
  };
  await load(plan.byService.get('identity') ?? []);
  await Promise.all([...plan.byService.entries()].filter(([service]) => service !== 'identity').map(([, ordered]) => load(ordered)));
  problems.sort((a, b) => a.line - b.line);
  // counts in import order, whatever order the services finished in
  return { loaded: Object.fromEntries(ImportOrder.filter((k) => k in loaded).map((k) => [k, loaded[k]])), problems };
}

/** Reads a file and loads it (planImport, then loadPlan). */
export async function importFile(path: string, bus: ServiceBus, onProgress?: ProgressListener): Promise<ImportSummary> {
  return loadPlan(await planImport(path), bus, onProgress);
}
