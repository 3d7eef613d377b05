// Message contracts, DTOs and response shapes of the event area.
export * from './loc-resolve.message';
export * from './event-categories';
export * from './event.shapes';
export * from './event.dto';
export * from './event.messages';
