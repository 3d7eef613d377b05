import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { PlatformContext, PlatformModule } from '@plaza/platform';
import { AccessGuard } from './access/access.guard';
import { AreasModule } from './areas/areas.module';
import { Auth2Controller } from './auth2/auth2.controller';
import { GatewayConfig } from './config/gateway.config';
import { GatewayCoreModule } from './gateway-core.module';
import { GatewayHealthController } from './health/gateway-health.controller';
import { GatewayReadiness } from './health/gateway-readiness';
import { ApiExceptionFilter } from './http/api-exception.filter';
import { PictureController } from './pictures/picture.controller';
import { BenchEchoController } from './bench/bench-echo.controller';
import { OpenApiController } from './openapi/openapi.controller';

/** Root of the gateway: cross-cutting rules as global guard, interceptor and filter; areas as modules. */
@Module({})
export class GatewayModule {
  static register(ctx: PlatformContext & { config: GatewayConfig }): DynamicModule {
    return {
      module: GatewayModule,
      imports: [PlatformModule.forRoot(ctx), GatewayCoreModule.register(ctx.config), PassportModule, DiscoveryModule, AreasModule],
      controllers: [GatewayHealthController, Auth2Controller, PictureController, OpenApiController, ...(ctx.config.BENCH_ENDPOINTS ? [BenchEchoController] : [])],
      providers: [
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        GatewayReadiness,
      ],
    };
  }
}
