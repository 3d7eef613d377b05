// Message contracts, DTOs and response shapes of the movie area.
export {};
