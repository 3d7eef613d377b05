import 'reflect-metadata';
import { bootstrapService, ServiceConfig } from '@plaza/platform';

void bootstrapService({ service: 'book', configClass: ServiceConfig, imports: () => [] });
