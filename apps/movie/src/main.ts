import './instrumentation';
import 'reflect-metadata';
import { bootstrapService } from '@plaza/service-kit';
import { MovieConfig } from './config/movie.config';
import { MovieModule } from './movie.module';

void bootstrapService({ service: 'movie', configClass: MovieConfig, imports: () => [MovieModule] });
