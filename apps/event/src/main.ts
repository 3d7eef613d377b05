import './instrumentation';
import 'reflect-metadata';
import { bootstrapService } from '@plaza/service-kit';
import { EventConfig } from './config/event.config';
import { EventModule } from './event.module';

void bootstrapService({ service: 'event', configClass: EventConfig, imports: () => [EventModule] });
