import 'reflect-metadata';
import { bootstrapService } from '@plaza/platform';
import { BookConfig } from './config/book.config';
import { BookModule } from './book.module';

void bootstrapService({ service: 'book', configClass: BookConfig, imports: () => [BookModule] });
