import { Module } from '@nestjs/common';

/** The HTTP face of each area: thin controllers that validate input and forward over NATS. */
@Module({
  imports: [],
})
export class AreasModule {}
