// Message contracts, DTOs and response shapes of the movie area.
export * from './movie.shapes';
export * from './movie.messages';
