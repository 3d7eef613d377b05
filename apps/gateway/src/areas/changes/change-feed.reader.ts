import { Inject, Injectable } from '@nestjs/common';
import {
  ApiError, CHANGE_STREAM, CHANGE_SUBJECT_PREFIX, ChangeEntry, ChangeKind, ChangeKinds, CHANGES_DEFAULT_COUNT, CHANGES_MAX_COUNT, ChangesPage, changeSubject,
} from '@plaza/contracts';
import { NATS_CONNECTION } from '@plaza/platform';
import { JetStreamManager, NatsConnection, RequestStrategy } from 'nats';

/** At most this many stored changes are read for one page (a `kinds` filter may skip many). */
const MAX_SCANNED = 10_000;
/** Messages asked for in one direct-get batch. */
const BATCH = 500;

export interface ChangesRequest {
  since?: string;
  kinds?: ChangeKind[];
  count?: number;
}

/**
 * Reads the `CHANGES` stream for `GET /v2/changes` (docs/api/changes.md). A cursor is a stream
 * sequence: `next` is the one after the last change read. Pages come from JetStream's batched
 * direct gets (`$JS.API.DIRECT.GET.CHANGES`, one request, many messages), so any gateway answers
 * any cursor and keeps no state per app.
 */
@Injectable()
export class ChangeFeedReader {
  private jsm?: JetStreamManager;
  private readonly decoder = new TextDecoder();

  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  async page(request: ChangesRequest): Promise<ChangesPage> {
    const state = await this.streamState();
    // first_seq is the oldest change kept (last_seq + 1 when every change has aged out)
    const first = Math.max(1, state.first_seq);
    const end = state.last_seq + 1;
    if (request.since === 'now') return { changes: [], next: String(end) };
    const since = request.since === undefined ? first : Number(request.since);
    if (since < first || since > end) {
      throw new ApiError('changes_cursor_expired', since < first ? 'the cursor is older than the changes kept' : 'the cursor is not of this feed');
    }
    const count = Math.min(request.count ?? CHANGES_DEFAULT_COUNT, CHANGES_MAX_COUNT);
    const kinds = new Set<ChangeKind>(request.kinds && request.kinds.length > 0 ? request.kinds : ChangeKinds);
    const filter = kinds.size === 1 ? changeSubject([...kinds][0]) : `${CHANGE_SUBJECT_PREFIX}.>`;
    const changes: ChangeEntry[] = [];
    let next = since;
    let scanned = 0;
    while (changes.length < count && next < end && scanned < MAX_SCANNED) {
      const batch = await this.batch(next, Math.min(BATCH, filter.endsWith('>') ? BATCH : count - changes.length), filter);
      if (batch.length === 0) {
        next = end;
        break;
      }
      for (const { seq, entry } of batch) {
        scanned++;
        next = seq + 1;
        if (kinds.has(entry.kind)) changes.push(entry);
        if (changes.length >= count) break;
      }
      if (batch.length < BATCH && changes.length < count) {
        // the batch reached the end of what the stream held when asked
        if (batch[batch.length - 1].pending === 0) next = Math.max(next, end);
      }
    }
    return { changes, next: String(next) };
  }

  private async streamState() {
    try {
      this.jsm ??= await this.nc.jetstreamManager({ checkAPI: false });
      return (await this.jsm.streams.info(CHANGE_STREAM)).state;
    } catch (err) {
      if (/not found/i.test((err as Error).message)) return { first_seq: 0, last_seq: 0 };
      throw new ApiError('service_unavailable', 'the change feed is not available');
    }
  }

  /** Up to `batch` stored changes from sequence `seq` on whose subject matches `filter`, in order. */
  private async batch(seq: number, batch: number, filter: string): Promise<Array<{ seq: number; pending: number; entry: ChangeEntry }>> {
    const out: Array<{ seq: number; pending: number; entry: ChangeEntry }> = [];
    const replies = await this.nc.requestMany(`$JS.API.DIRECT.GET.${CHANGE_STREAM}`, JSON.stringify({ seq, batch, next_by_subj: filter }), {
      strategy: RequestStrategy.SentinelMsg,
      maxWait: 5000,
    });
    for await (const m of replies) {
      const code = m.headers?.code ?? 0;
      // 204 ends the batch; 404: nothing at or after `seq`
      if (code === 204 || code === 404 || m.data.length === 0) break;
      if (code >= 400) throw new ApiError('service_unavailable', `change feed read failed (${code})`);
      out.push({
        seq: Number(m.headers?.get('Nats-Sequence')),
        pending: Number(m.headers?.get('Nats-Num-Pending') ?? 0),
        entry: JSON.parse(this.decoder.decode(m.data)) as ChangeEntry,
      });
    }
    return out;
  }
}
