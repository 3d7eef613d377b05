import './instrumentation';
import 'reflect-metadata';
import { bootstrapService } from '@plaza/service-kit';
import { IdentityConfig } from './config/identity.config';
import { IdentityModule } from './identity.module';

void bootstrapService({ service: 'identity', configClass: IdentityConfig, imports: () => [IdentityModule] });
