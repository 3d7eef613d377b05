import 'reflect-metadata';
import { bootstrapService } from '@plaza/platform';
import { EventConfig } from './config/event.config';
import { EventModule } from './event.module';

void bootstrapService({ service: 'event', configClass: EventConfig, imports: () => [EventModule] });
