import { Controller, Get, Inject, Res, Type } from '@nestjs/common';
import { metricsText } from '../observability/metrics';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { echoMessage, EchoResponse, pingMessage, PingRequest, PingResponse } from '@plaza/contracts';
import type { FastifyReply } from 'fastify';
import { hostname } from 'node:os';
import { ReadinessRegistry } from './readiness';

/**
 * `/health` (the process is up), `/ready` (its dependencies answer) and `/metrics` (Prometheus)
 * over HTTP for probes and scrapes, and `<service>.v1.health.ping` over NATS for the gateway's /ready.
 */
export function createHealthController(service: string): Type<unknown> {
  const instance = `${hostname()}:${process.pid}`;

  @Controller()
  class HealthController {
    constructor(@Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry) {}

    @Get('health')
    health() {
      return { status: 'ok', service, instance, uptime: Math.round(process.uptime()) };
    }

    @Get('ready')
    async ready(@Res() reply: FastifyReply) {
      const report = await this.readiness.report();
      await reply.status(report.status === 'ok' ? 200 : 503).send({ service, ...report });
    }

    @Get('metrics')
    async metrics(@Res() reply: FastifyReply) {
      const text = await metricsText();
      if (!text) return reply.status(404).send({ status: 'metrics are off (METRICS_ENABLED=false)' });
      await reply.header('content-type', text.contentType).send(text.body);
    }

    @MessagePattern(pingMessage(service).subject)
    async ping(@Payload() request: PingRequest): Promise<PingResponse> {
      const report = await this.readiness.report(500);
      return { service, instance, ready: report.status === 'ok', ...(request.echo !== undefined ? { echo: request.echo } : {}) };
    }

    @MessagePattern(echoMessage(service).subject)
    echo(@Payload() request: PingRequest): EchoResponse {
      return { service, echo: request.echo };
    }
  }
  return HealthController;
}
