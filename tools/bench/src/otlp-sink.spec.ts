import { workspaceRoot } from '@plaza/stack';
import { execFile } from 'node:child_process';
import { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { countJsonSpans, countProtobufSpans, emptyStats, recordExport, sinkServer, SinkStats, statsSince } from './otlp-sink';

// a minimal protobuf writer, for bodies made by hand
const varint = (n: number): number[] => {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
};
const field = (number: number, bytes: Buffer) => Buffer.from([...varint(number * 8 + 2), ...varint(bytes.length), ...bytes]);
const varintField = (number: number, value: number) => Buffer.from([...varint(number * 8), ...varint(value)]);
const fixed64Field = (number: number) => Buffer.from([...varint(number * 8 + 1), 1, 2, 3, 4, 5, 6, 7, 8]);
const text = (number: number, s: string) => field(number, Buffer.from(s));
const keyValue = (key: string, value: string) => field(1, Buffer.concat([text(1, key), field(2, text(1, value))]));
/** A Span: ids, name, a start time (fixed64) and a kind (varint), all of which must be skipped. */
const span = (name: string) => field(2, Buffer.concat([field(1, Buffer.alloc(16, 1)), field(2, Buffer.alloc(8, 2)), text(5, name), varintField(6, 2), fixed64Field(7)]));
const resourceSpans = (service: string | undefined, spansPerScope: number[]) =>
  field(1, Buffer.concat([
    field(1, Buffer.concat([keyValue('host.name', 'x'), ...(service ? [keyValue('service.name', service)] : [])])),
    ...spansPerScope.map((n) => field(2, Buffer.concat([field(1, text(1, 'scope')), ...Array.from({ length: n }, (_, i) => span(`s${i}`))]))),
    text(3, 'https://opentelemetry.io/schemas/1.30.0'),
  ]));

describe('the OTLP sink', () => {
  it('counts the spans of a protobuf export, by service.name, across resources and scopes', () => {
    const body = Buffer.concat([resourceSpans('gateway', [2, 3]), resourceSpans('book', [1]), resourceSpans(undefined, [4])]);
    expect(countProtobufSpans(body)).toEqual({ spans: 10, byService: { gateway: 5, book: 1, '(no service.name)': 4 } });
    expect(countProtobufSpans(Buffer.alloc(0))).toEqual({ spans: 0, byService: {} });
  });

  it('counts the spans of a JSON export', () => {
    const body = { resourceSpans: [
      { resource: { attributes: [{ key: 'service.name', value: { stringValue: 'gateway' } }] }, scopeSpans: [{ spans: [{}, {}] }, { spans: [{}] }] },
      { resource: { attributes: [] }, scopeSpans: [{ spans: [{}] }] },
    ] };
    expect(countJsonSpans(JSON.stringify(body))).toEqual({ spans: 4, byService: { gateway: 3, '(no service.name)': 1 } });
  });

  it('counts every request and its bytes, gzip bodies uncompressed, and a body it cannot read as unreadable', () => {
    const stats = emptyStats();
    const body = resourceSpans('book', [3]);
    recordExport(stats, body, 'application/x-protobuf');
    const zipped = gzipSync(body);
    recordExport(stats, zipped, 'application/x-protobuf', 'gzip');
    recordExport(stats, Buffer.from([0x0a, 0x50, 0x01]), 'application/x-protobuf'); // a field longer than the body
    recordExport(stats, Buffer.from('{not json'), 'application/json; charset=utf-8');
    expect(stats).toEqual({
      requests: 4, bytes: body.length + zipped.length + 3 + 9, spans: 6, byService: { book: 6 }, unreadable: 2,
      contentTypes: { 'application/x-protobuf': 3, 'application/json': 1 },
    });
    const later = structuredClone(stats);
    recordExport(later, body, 'application/x-protobuf');
    expect(statsSince(later, stats)).toEqual({ requests: 1, bytes: body.length, spans: 3, byService: { book: 3 }, unreadable: 0, contentTypes: { 'application/x-protobuf': 1 } });
  });

  describe('receiving the OpenTelemetry SDK\'s own exports', () => {
    const server = sinkServer();
    let endpoint = '';
    beforeAll(async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const stats = async () => (await (await fetch(`${endpoint}/stats`)).json()) as SinkStats;

    /**
     * The SDK's exporters, in a Node process of their own (under Jest they cannot load: they
     * import node:http dynamically), send 25 traces of two spans as a gateway would.
     */
    const exportTraces = (exporterPackage: string) => promisify(execFile)(process.execPath, ['-e', `
      const { OTLPTraceExporter } = require('${exporterPackage}');
      const { resourceFromAttributes } = require('@opentelemetry/resources');
      const { BatchSpanProcessor, TracerProvider } = require('@opentelemetry/sdk-trace');
      const provider = new TracerProvider({
        resource: resourceFromAttributes({ 'service.name': 'gateway' }),
        spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: '${endpoint}/v1/traces' }) })],
      });
      const tracer = provider.getTracer('bench');
      for (let i = 0; i < 25; i++) tracer.startActiveSpan('GET /v2/book/' + i, (parent) => {
        tracer.startSpan('book.v1.book.get').end();
        parent.end();
      });
      provider.shutdown().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });
    `], { cwd: workspaceRoot(), timeout: 20_000 });

    it.each([
      ['http/protobuf', '@opentelemetry/exporter-trace-otlp-proto', 'application/x-protobuf'],
      ['http/json', '@opentelemetry/exporter-trace-otlp-http', 'application/json'],
    ])('counts the spans the SDK sends over %s, with the service that sent them', async (_protocol, exporterPackage, contentType) => {
      const before = await stats();
      await exportTraces(exporterPackage);
      const received = statsSince(await stats(), before);
      expect(received.spans).toBe(50);
      expect(received.byService).toEqual({ gateway: 50 });
      expect(received.unreadable).toBe(0);
      expect(received.requests).toBeGreaterThanOrEqual(1);
      expect(received.contentTypes).toEqual({ [contentType]: received.requests });
    });

    it('answers nothing else', async () => {
      expect((await fetch(`${endpoint}/v1/metrics`, { method: 'POST', body: '' })).status).toBe(404);
    });
  });
});
