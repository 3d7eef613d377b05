import { Module } from '@nestjs/common';

/** The movie service: its collections, message handlers and import. */
@Module({})
export class MovieModule {}
