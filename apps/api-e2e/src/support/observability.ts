import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// reading /metrics is shared with the benchmark
export { moved, parseMetrics, scrape, series } from '@plaza/stack';
export type { Scrape } from '@plaza/stack';

export interface ReceivedSpan {
  service: string;
  scope: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  kind: number;
  attributes: Record<string, unknown>;
}

interface OtlpValue { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number }
interface OtlpAttribute { key: string; value: OtlpValue }
interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      scope?: { name?: string };
      spans?: Array<{ name: string; traceId: string; spanId: string; parentSpanId?: string; kind: number; attributes?: OtlpAttribute[] }>;
    }>;
  }>;
}

const valueOf = (v: OtlpValue) => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;
const attributesOf = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/**
 * An OTLP/HTTP receiver of the test's own (JSON encoding, `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`):
 * what the apps' exporters send, as a collector would receive it.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/v1/traces') this.receive(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private receive(body: OtlpExport): void {
    for (const resource of body.resourceSpans ?? []) {
      const service = String(attributesOf(resource.resource?.attributes)['service.name']);
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            service, scope: scope.scope?.name ?? '', name: span.name, traceId: span.traceId, spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined, kind: span.kind, attributes: attributesOf(span.attributes),
          });
        }
      }
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
