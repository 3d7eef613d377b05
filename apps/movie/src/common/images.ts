import { MovieImages } from '@plaza/contracts';
import { ImagesInput } from '../import/movie-import.records';

/** The given addresses, each missing size filled from the defaults. */
export function withImages(given: ImagesInput | undefined, defaults: MovieImages): MovieImages {
  return { small: given?.small ?? defaults.small, large: given?.large ?? defaults.large, medium: given?.medium ?? defaults.medium };
}
