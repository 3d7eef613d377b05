export * from './sniff';
export * from './signing';
export * from './picture-store';
export * from './picture-urls';
