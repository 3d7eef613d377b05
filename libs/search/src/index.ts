export * from './terms';
export * from './term-index';
