import 'reflect-metadata';
import { bootstrapService, ServiceConfig } from '@plaza/platform';

void bootstrapService({ service: 'movie', configClass: ServiceConfig, imports: () => [] });
