import { Controller, Get, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { echoMessage } from '@plaza/contracts';
import { ServiceBus } from '@plaza/platform';

/**
 * The benchmark's NATS round trip: gateway → `event.v1.health.echo` → back, no database.
 * Registered only when BENCH_ENDPOINTS=true (never in a normal deployment).
 */
@ApiExcludeController()
@Controller('_bench')
export class BenchEchoController {
  constructor(private readonly bus: ServiceBus) {}

  @Get('echo')
  echo(@Query('n') n?: string) {
    return this.bus.forward(echoMessage('event'), { echo: typeof n === 'string' ? n.slice(0, 50) : '' });
  }
}
