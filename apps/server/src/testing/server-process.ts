import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

/** The built server (npm run build); these tests run it as a real process, the way production does. */
const serverEntry = path.resolve(import.meta.dirname, '../../dist/server.js');

export const SERVICE_SECRET = 'process-test-secret-0123456789abcdefghij';

export interface ServerProcess {
  origin: string;
  child: ChildProcess;
  /** Output so far, for failure messages. */
  output(): string;
  /** SIGKILL: no shutdown code runs, as when a machine loses power. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

/**
 * Starts the built server with `env` on a free port (or `port`) and waits until it answers. Instances
 * behind one load balancer share one PUBLIC_URL: pass it in `env`.
 */
export async function startServer(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run npm run build first`);
  port ??= await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, [serverEntry], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      LOG_LEVEL: 'warn',
      LOYALTY_CLIENT_SECRET: SERVICE_SECRET,
      LOYALTY_EXPIRY_INTERVAL_SECONDS: '0',
      RATE_LIMIT_PER_ADDRESS: '0',
      RATE_LIMIT_PER_CUSTOMER: '0',
      // Tests stop servers at once; the drain test sets its own delay.
      SHUTDOWN_DELAY_SECONDS: '0',
      ...env,
    },
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Generous: a first start creates the database and the demo customers, slow on a loaded CI machine.
  const until = Date.now() + 150_000;
  for (;;) {
    // A crash ends it by a signal (a V8 fatal error aborts): exitCode stays null then.
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}):\n${output}`);
    try {
      if ((await fetch(`${origin}/config.json`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`server did not answer within 150 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    origin,
    child,
    output: () => output,
    async kill9() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/** A client-credentials token of the rental system's service client. */
export async function serviceTokenOf(server: ServerProcess): Promise<string> {
  const res = await fetch(`${server.origin}/auth/realms/customer/protocol/openid-connect/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`rental-system:${SERVICE_SECRET}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'loyalty:events' }),
  });
  if (!res.ok) throw new Error(`service token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
