export * from './paths';
export * from './engines';
export * from './processes';
export * from './stack';
export * from './nats-auth';
export * from './metrics-scrape';
