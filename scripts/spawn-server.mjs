// Shared by the benchmark and screenshot scripts: starts the built server (npm run build) on loopback
// in development mode (the demo customers are needed to sign in), with its rate limits out of the way
// (these scripts send many requests from one address) and quiet logs. `env` adds or overrides.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

export function spawnServer(port, env = {}) {
  return spawn(process.execPath, ['apps/server/dist/server.js'], {
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
  });
}
