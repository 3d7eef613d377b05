import { Controller, Inject, Type } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { echoMessage, EchoResponse, pingMessage, PingRequest, PingResponse } from '@plaza/contracts';
import { hostname } from 'node:os';
import type { ProbeAnswers } from './probe-server';
import { ReadinessRegistry } from './readiness';

/**
 * An area service's health: `/health` (the process is up) and `/ready` (its dependencies answer)
 * on its probe listener (probe-server.ts, with `/metrics`), and `<service>.v1.health.ping` over
 * NATS for the gateway's /ready.
 */
export function serviceProbeAnswers(service: string, readiness: ReadinessRegistry): ProbeAnswers {
  const instance = `${hostname()}:${process.pid}`;
  return {
    health: () => ({ status: 'ok', service, instance, uptime: Math.round(process.uptime()) }),
    ready: async () => {
      const report = await readiness.report();
      return { ok: report.status === 'ok', body: { service, ...report } };
    },
  };
}

/** The NATS side of a service's health: the gateway's readiness ping, and the benchmark's echo. */
export function createHealthController(service: string): Type<unknown> {
  const instance = `${hostname()}:${process.pid}`;

  @Controller()
  class HealthController {
    constructor(@Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry) {}

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
