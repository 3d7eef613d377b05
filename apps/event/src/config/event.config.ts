import { ServiceConfig } from '@plaza/platform';

/** Configuration of the event service (validated at start-up). */
export class EventConfig extends ServiceConfig {}
