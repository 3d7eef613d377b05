// first of main.ts's imports: tracing must patch http and the database driver before they load
import { startTracing } from '@plaza/platform';

startTracing('movie', { implicitContext: true });
