import 'reflect-metadata';
import { bootstrapService, ServiceConfig } from '@plaza/platform';

void bootstrapService({ service: 'note', configClass: ServiceConfig, imports: () => [] });
