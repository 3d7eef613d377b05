import { Module } from '@nestjs/common';

/** The event service: its collections, message handlers and import. */
@Module({})
export class EventModule {}
