// Message contracts, DTOs and response shapes of the note area.
export {};
