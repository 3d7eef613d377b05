// Message contracts, DTOs and response shapes of the note area.
export * from './note.dto';
export * from './note.messages';
