#!/usr/bin/env node
// npm run fleet: three Roadpass instances behind HAProxy (TLS) and PgBouncer, on a throwaway
// PostgreSQL cluster, on this machine (the recipe of deploy/README.md, as child processes). Installs
// haproxy, pgbouncer and the exporters from Debian's packages when missing. Ctrl-C stops everything.
// Needs a build (npm run build). Settings: FLEET_INSTANCES (3), FLEET_PORT (a free one),
// FLEET_VERBOSE=1 (the children's stderr).
import { startFleet } from './fleet/fleet.mjs';

const fleet = await startFleet({
  instances: Number(process.env.FLEET_INSTANCES ?? 3),
  publicPort: Number(process.env.FLEET_PORT ?? 0),
  log: (line) => console.log(line),
  // Its own handlers below stop the fleet and say so.
  handleSignals: false,
});
console.log(`\nRoadpass: ${fleet.url}  (self-signed certificate: ${fleet.runDir}/tls.crt)`);
console.log(`HAProxy runtime API: socat - ${fleet.runDir}/haproxy.sock  ·  PgBouncer: ${fleet.databaseUrl}`);
console.log(
  `Health and metrics (management ports, not behind HAProxy): ${fleet.instances
    .map((s) => `http://127.0.0.1:${s.managementPort}/metrics`)
    .join(', ')}`,
);
console.log(
  `Exporters for Prometheus (deploy/prometheus/prometheus.yml): ${Object.entries(fleet.exporters)
    .map(([name, url]) => `${name} ${url}`)
    .join(', ')}`,
);
console.log('No demo customers (NODE_ENV=production): register at the sign-in page. Ctrl-C stops the fleet.');
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping the fleet…');
    await fleet.stop();
    process.exit(0);
  });
}
