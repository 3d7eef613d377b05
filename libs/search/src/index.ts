export * from './terms';
export * from './term-index';
export * from './local-search-index';
