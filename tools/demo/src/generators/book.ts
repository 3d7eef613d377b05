import { AreaGenerator } from '../catalogue';

/** The book part of the demo catalogue (CONTRACT.md section 6 record kinds). */
export const bookGenerator: AreaGenerator = function* () {
  // filled in by the book area
};
