import { ServiceConfig } from '@plaza/platform';

/** Configuration of the book service (validated at start-up). */
export class BookConfig extends ServiceConfig {}
