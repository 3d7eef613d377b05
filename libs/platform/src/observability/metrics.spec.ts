import { register } from 'prom-client';
import { initMetrics, Metrics, metricsEnabled, metricsText } from './metrics';

describe('metrics', () => {
  afterEach(() => register.resetMetrics());

  it('records nothing and serves nothing until initialised (METRICS_ENABLED=false)', async () => {
    initMetrics('book', false);
    Metrics.httpRequest('/v2/book/:id', 'GET', 200, 0.01);
    expect(metricsEnabled()).toBe(false);
    expect(await metricsText()).toBeUndefined();
  });

  it('labels every series with the service and keeps one child per label combination', async () => {
    initMetrics('gateway', true);
    Metrics.httpRequest('/v2/book/:id', 'GET', 200, 0.003);
    Metrics.httpRequest('/v2/book/:id', 'GET', 200, 0.2);
    Metrics.natsClientRequest('book.v1.book.get', 'no_responders', 0.001);
    Metrics.cacheEvent('hit');
    Metrics.cacheEvent('invalidation', 3);
    Metrics.tokenRejected(103);
    const text = (await metricsText())!;
    expect(text.contentType).toContain('text/plain');
    expect(text.body).toContain('plaza_http_request_duration_seconds_count{service="gateway",route="/v2/book/:id",method="GET",status="200"} 2');
    expect(text.body).toContain('plaza_http_request_duration_seconds_bucket{le="0.005",service="gateway",route="/v2/book/:id",method="GET",status="200"} 1');
    expect(text.body).toContain('plaza_nats_client_request_duration_seconds_count{service="gateway",subject="book.v1.book.get",outcome="no_responders"} 1');
    expect(text.body).toContain('plaza_response_cache_events_total{event="invalidation",service="gateway"} 3');
    expect(text.body).toContain('plaza_token_rejections_total{code="103",service="gateway"} 1');
    // the process and runtime defaults
    expect(text.body).toContain('process_cpu_user_seconds_total{service="gateway"}');
  });
});
