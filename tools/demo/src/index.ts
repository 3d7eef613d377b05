export * from './random';
export * from './text';
export * from './catalogue';
export * from './generate';
export * from './generators/identity';
