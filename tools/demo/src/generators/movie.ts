import { AreaGenerator } from '../catalogue';

/** The movie part of the demo catalogue (CONTRACT.md section 6 record kinds). */
export const movieGenerator: AreaGenerator = function* () {
  // filled in by the movie area
};
