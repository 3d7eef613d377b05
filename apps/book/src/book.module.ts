import { Module } from '@nestjs/common';

/** The book service: its collections, message handlers and import. */
@Module({})
export class BookModule {}
