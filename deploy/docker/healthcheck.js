'use strict';
// Container health check (Dockerfile HEALTHCHECK, compose healthcheck): GET /health on the app's
// own port. The gateway answers on PORT; a service on HEALTH_PORT. The importer image runs
// one-shot jobs and has nothing to check.
const app = process.env.APP || '';
if (app === 'importer') process.exit(0);
const port = app === 'gateway' ? process.env.PORT || '8080' : process.env.HEALTH_PORT || '8081';
const path = process.argv[2] || '/health';
fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2500) })
  .then((res) => process.exit(res.status === 200 ? 0 : 1))
  .catch(() => process.exit(1));
