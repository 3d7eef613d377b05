'use strict';
// Container health check (Dockerfile HEALTHCHECK, compose healthcheck):
//   healthcheck.js [path] [admin]
// GET path (default /health) on the app's own port: the gateway's PORT, a service's HEALTH_PORT;
// with `admin`, the gateway's admin listener (ADMIN_PORT), whose /ready is the gateway's own
// readiness. The importer image runs one-shot jobs and has nothing to check.
const app = process.env.APP || '';
if (app === 'importer') process.exit(0);
const path = process.argv[2] || '/health';
const port =
  process.argv[3] === 'admin'
    ? process.env.ADMIN_PORT || '9464'
    : app === 'gateway'
      ? process.env.PORT || '8080'
      : process.env.HEALTH_PORT || '8081';
fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2500) })
  .then((res) => process.exit(res.status === 200 ? 0 : 1))
  .catch(() => process.exit(1));
