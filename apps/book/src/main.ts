import './instrumentation';
import 'reflect-metadata';
import { bootstrapService } from '@plaza/service-kit';
import { BookConfig } from './config/book.config';
import { BookModule } from './book.module';

void bootstrapService({ service: 'book', configClass: BookConfig, imports: () => [BookModule] });
