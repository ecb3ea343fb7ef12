// Shared by the benchmark and screenshot scripts: starts the built server (npm run build) on loopback
// in development mode (the demo customers are needed to sign in), with its rate limits out of the way
// (these scripts send many requests from one address) and quiet logs. `env` adds or overrides. Starts
// the benchmarks' bare Fastify too. Whatever it starts is stopped when the script exits.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** The processes started here that have not exited yet. */
const running = new Set();
// A script that fails (a thrown error, a rejected top-level await) leaves none of them behind. A
// bench:million that stopped at its own check of the data set left the small database's server
// serving until it was killed by hand, 15 minutes later (1 Dec). The 'exit' event comes after an uncaught error too; kill() is
// synchronous, as that event's listeners must be.
process.on('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});

/** Stops `child` when this script exits, however it ends; returns `child`. */
export function stopOnExit(child) {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** The bare Fastify hello-world of the benchmarks (scripts/bench-baseline-server.mjs), on `port`. */
export function spawnBaseline(port) {
  return stopOnExit(
    spawn(process.execPath, ['scripts/bench-baseline-server.mjs', String(port)], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
}

export function spawnServer(port, env = {}) {
  return stopOnExit(
    spawn(process.execPath, ['apps/server/dist/server.js'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_ADDRESS: '0',
        RATE_LIMIT_PER_CUSTOMER: '0',
        ...env,
      },
    }),
  );
}
