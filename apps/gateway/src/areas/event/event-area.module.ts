import { Module } from '@nestjs/common';

/** The HTTP face of the event area: thin controllers that validate input and forward over NATS. */
@Module({ controllers: [] })
export class EventAreaModule {}
