import { ServiceConfig } from '@plaza/platform';

/** Configuration of the movie service (validated at start-up). */
export class MovieConfig extends ServiceConfig {}
