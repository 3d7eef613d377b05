import { Module } from '@nestjs/common';

/** The note service: its collections, message handlers and import. */
@Module({})
export class NoteModule {}
