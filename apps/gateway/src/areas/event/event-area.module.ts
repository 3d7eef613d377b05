import { Module } from '@nestjs/common';
import { EventController } from './event.controller';
import { LocController } from './loc.controller';

/** The HTTP face of the event area: thin controllers that validate input and forward over NATS. */
@Module({ controllers: [EventController, LocController] })
export class EventAreaModule {}
