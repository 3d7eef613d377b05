import { ServiceConfig } from '@plaza/platform';

/** Configuration of the note service (validated at start-up). */
export class NoteConfig extends ServiceConfig {}
