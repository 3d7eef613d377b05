import 'reflect-metadata';
import { bootstrapService, ServiceConfig } from '@plaza/platform';

void bootstrapService({ service: 'event', configClass: ServiceConfig, imports: () => [] });
