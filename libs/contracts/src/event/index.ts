// Message contracts, DTOs and response shapes of the event area.
export * from './loc-resolve.message';
