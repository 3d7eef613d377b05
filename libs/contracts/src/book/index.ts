// Message contracts, DTOs and response shapes of the book area.
export {};
