import { freePort, httpStatus, ManagedProcess, waitFor } from '@plaza/stack';
import { createServer, IncomingMessage, Server } from 'node:http';
import { join } from 'node:path';
import { gunzipSync, inflateSync } from 'node:zlib';

/**
 * The OTLP/HTTP receiver of the benchmark's traced stack: it answers 200 to every export, counts
 * what arrived (requests, bytes, spans by service) and keeps nothing. It runs in a process of its
 * own so that what receiving the spans costs shows in its own column of the CPU table, apart from
 * what producing them costs the stack.
 */

/** What the sink has received since it started. */
export interface SinkStats {
  /** POSTs to /v1/traces. */
  requests: number;
  /** Their bodies, as sent (compressed, if they were). */
  bytes: number;
  spans: number;
  /** Spans by the `service.name` of their resource. */
  byService: Record<string, number>;
  /** Bodies that could not be read as OTLP (counted in requests and bytes, not in spans). */
  unreadable: number;
  /** Content types seen, with their request counts. */
  contentTypes: Record<string, number>;
}

export const emptyStats = (): SinkStats => ({ requests: 0, bytes: 0, spans: 0, byService: {}, unreadable: 0, contentTypes: {} });

export interface SpanCount {
  spans: number;
  byService: Record<string, number>;
}

const UNKNOWN_SERVICE = '(no service.name)';

function add(into: Record<string, number>, key: string, n: number): void {
  if (n > 0) into[key] = (into[key] ?? 0) + n;
}

// --- protobuf: just enough of the wire format to walk an ExportTraceServiceRequest ---------------

interface Field {
  number: number;
  wireType: number;
  /** For length-delimited fields: where the bytes are. */
  start: number;
  end: number;
}

function readVarint(buf: Uint8Array, pos: number): [value: number, next: number] {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= buf.length) throw new Error('truncated varint');
    const byte = buf[pos++];
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, pos];
    scale *= 128;
  }
  throw new Error('varint too long');
}

/** The fields of one message, in order (`start`/`end` delimit a length-delimited field's bytes). */
function* fieldsOf(buf: Uint8Array, start = 0, end = buf.length): Generator<Field> {
  let pos = start;
  while (pos < end) {
    const [tag, afterTag] = readVarint(buf, pos);
    const number = Math.floor(tag / 8);
    const wireType = tag % 8;
    pos = afterTag;
    let fieldStart = pos;
    switch (wireType) {
      case 0:
        pos = readVarint(buf, pos)[1];
        break;
      case 1:
        pos += 8;
        break;
      case 2: {
        const [length, afterLength] = readVarint(buf, pos);
        fieldStart = afterLength;
        pos = afterLength + length;
        break;
      }
      case 5:
        pos += 4;
        break;
      default:
        throw new Error(`unsupported wire type ${wireType}`);
    }
    if (pos > end) throw new Error('truncated field');
    yield { number, wireType, start: fieldStart, end: pos };
  }
}

const lengthDelimited = (f: Field, number: number) => f.number === number && f.wireType === 2;

/** Resource { repeated KeyValue attributes = 1 }, KeyValue { key = 1; AnyValue value = 2 }, AnyValue { string_value = 1 }. */
function serviceNameOf(buf: Uint8Array, resource: Field): string | undefined {
  const text = (f: Field) => Buffer.from(buf.buffer, buf.byteOffset + f.start, f.end - f.start).toString('utf8');
  for (const attribute of fieldsOf(buf, resource.start, resource.end)) {
    if (!lengthDelimited(attribute, 1)) continue;
    let key: string | undefined;
    let value: Field | undefined;
    for (const f of fieldsOf(buf, attribute.start, attribute.end)) {
      if (lengthDelimited(f, 1)) key = text(f);
      else if (lengthDelimited(f, 2)) value = f;
    }
    if (key !== 'service.name' || !value) continue;
    for (const f of fieldsOf(buf, value.start, value.end)) if (lengthDelimited(f, 1)) return text(f);
  }
  return undefined;
}

/**
 * Spans in an ExportTraceServiceRequest in protobuf: { repeated ResourceSpans resource_spans = 1 },
 * ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2 },
 * ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2 }.
 */
export function countProtobufSpans(buf: Uint8Array): SpanCount {
  const count: SpanCount = { spans: 0, byService: {} };
  for (const resourceSpans of fieldsOf(buf)) {
    if (!lengthDelimited(resourceSpans, 1)) continue;
    let service: string | undefined;
    let spans = 0;
    for (const f of fieldsOf(buf, resourceSpans.start, resourceSpans.end)) {
      if (lengthDelimited(f, 1)) service = serviceNameOf(buf, f);
      else if (lengthDelimited(f, 2)) {
        for (const span of fieldsOf(buf, f.start, f.end)) if (lengthDelimited(span, 2)) spans++;
      }
    }
    count.spans += spans;
    add(count.byService, service ?? UNKNOWN_SERVICE, spans);
  }
  return count;
}

interface JsonKeyValue { key?: string; value?: { stringValue?: string } }
interface JsonResourceSpans {
  resource?: { attributes?: JsonKeyValue[] };
  scopeSpans?: Array<{ spans?: unknown[] }>;
}

/** Spans in an ExportTraceServiceRequest in OTLP's JSON encoding. */
export function countJsonSpans(text: string): SpanCount {
  const body = JSON.parse(text) as { resourceSpans?: JsonResourceSpans[] };
  const count: SpanCount = { spans: 0, byService: {} };
  for (const rs of body.resourceSpans ?? []) {
    const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value?.stringValue;
    const spans = (rs.scopeSpans ?? []).reduce((n, s) => n + (s.spans?.length ?? 0), 0);
    count.spans += spans;
    add(count.byService, service ?? UNKNOWN_SERVICE, spans);
  }
  return count;
}

/** Counts one export request into `stats`: its bytes always, its spans when the body reads as OTLP. */
export function recordExport(stats: SinkStats, body: Buffer, contentType = '', contentEncoding = ''): void {
  stats.requests++;
  stats.bytes += body.length;
  const type = contentType.split(';')[0].trim().toLowerCase() || '(none)';
  add(stats.contentTypes, type, 1);
  try {
    const encoding = contentEncoding.trim().toLowerCase();
    const plain = encoding === 'gzip' ? gunzipSync(body) : encoding === 'deflate' ? inflateSync(body) : body;
    const count = type === 'application/json' ? countJsonSpans(plain.toString('utf8')) : countProtobufSpans(plain);
    stats.spans += count.spans;
    for (const [service, n] of Object.entries(count.byService)) add(stats.byService, service, n);
  } catch {
    stats.unreadable++;
  }
}

/** What arrived between two readings of the stats. */
export function statsSince(now: SinkStats, before: SinkStats): SinkStats {
  const minus = (a: Record<string, number>, b: Record<string, number>) => {
    const out: Record<string, number> = {};
    for (const [k, v] of Object.entries(a)) add(out, k, v - (b[k] ?? 0));
    return out;
  };
  return {
    requests: now.requests - before.requests,
    bytes: now.bytes - before.bytes,
    spans: now.spans - before.spans,
    byService: minus(now.byService, before.byService),
    unreadable: now.unreadable - before.unreadable,
    contentTypes: minus(now.contentTypes, before.contentTypes),
  };
}

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** POST /v1/traces: counted, answered 200 with an empty ExportTraceServiceResponse; GET /stats: the counts. */
export function sinkServer(stats: SinkStats = emptyStats()): Server {
  return createServer((req, res) => {
    if (req.method === 'POST' && req.url?.split('?')[0] === '/v1/traces') {
      readBody(req).then(
        (body) => {
          const contentType = req.headers['content-type'] ?? '';
          recordExport(stats, body, contentType, req.headers['content-encoding'] ?? '');
          const json = contentType.includes('json');
          res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
          res.end(json ? '{}' : undefined);
        },
        () => {
          res.writeHead(400);
          res.end();
        },
      );
      return;
    }
    if (req.method === 'GET' && req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(stats));
      return;
    }
    res.writeHead(404);
    res.end();
  });
}

/** The sink as the benchmark uses it: a child process, read through GET /stats. */
export class OtlpSink {
  private constructor(private readonly proc: ManagedProcess, private readonly url: string) {}

  static async start(logFile: string): Promise<OtlpSink> {
    const port = await freePort();
    const proc = new ManagedProcess('otlp-sink', {
      command: process.execPath,
      args: [join(__dirname, 'otlp-sink.js'), '--serve'],
      env: { PORT: String(port) },
      logFile,
    }).start();
    const url = `http://127.0.0.1:${port}`;
    await waitFor('the OTLP sink', async () => (await httpStatus(`${url}/stats`).catch(() => 0)) === 200, 20_000, () => (proc.running ? undefined : proc.tail()));
    return new OtlpSink(proc, url);
  }

  /** What OTEL_EXPORTER_OTLP_ENDPOINT names: the exporters post to `<endpoint>/v1/traces`. */
  get endpoint(): string {
    return this.url;
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  async stats(): Promise<SinkStats> {
    const res = await fetch(`${this.url}/stats`, { signal: AbortSignal.timeout(5000) });
    return (await res.json()) as SinkStats;
  }

  async stop(): Promise<void> {
    await this.proc.stop();
  }
}

if (require.main === module && process.argv.includes('--serve')) {
  const server = sinkServer();
  server.keepAliveTimeout = 30_000;
  server.listen(Number(process.env.PORT), '127.0.0.1');
  // nothing to flush: the sink keeps nothing but its counts
  process.on('SIGTERM', () => process.exit(0));
}
