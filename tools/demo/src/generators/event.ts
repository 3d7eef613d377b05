import { AreaGenerator } from '../catalogue';

/** The event part of the demo catalogue (CONTRACT.md section 6 record kinds). */
export const eventGenerator: AreaGenerator = function* () {
  // filled in by the event area
};
