// Message contracts, DTOs and response shapes of the book area.
export * from './book-validators';
export * from './book.inputs';
export * from './book.types';
export * from './book.messages';
