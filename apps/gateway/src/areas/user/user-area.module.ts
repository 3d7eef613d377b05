import { Module } from '@nestjs/common';
import { ExportController } from './export.controller';
import { UsersController } from './users.controller';

/** The HTTP face of users (identity owns them): a thin controller that forwards over NATS. */
@Module({ controllers: [UsersController, ExportController] })
export class UserAreaModule {}
