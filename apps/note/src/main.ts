import './instrumentation';
import 'reflect-metadata';
import { bootstrapService } from '@plaza/service-kit';
import { NoteConfig } from './config/note.config';
import { NoteModule } from './note.module';

void bootstrapService({ service: 'note', configClass: NoteConfig, imports: () => [NoteModule] });
