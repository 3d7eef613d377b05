export * from './terms';
export * from './term-index';
export * from './rank-keys';
export * from './ranked-postings';
export * from './partition-point';
