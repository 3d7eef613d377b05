import { Module } from '@nestjs/common';

/** The HTTP face of the book area: thin controllers that validate input and forward over NATS. */
@Module({ controllers: [] })
export class BookAreaModule {}
