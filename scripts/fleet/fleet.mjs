// A Roadpass fleet on this machine, from the recipe in deploy/: its own throwaway PostgreSQL cluster,
// PgBouncer (transaction mode) in front of it, N instances of the built server, and HAProxy (TLS,
// health checks) in front of them. Everything runs as child processes with generated configuration in
// one run directory, on free ports; stop() ends them all and deletes the directory.
// Used by `npm run fleet` (scripts/fleet.mjs), the fleet test (scripts/fleet/fleet-test.mjs) and the
// balancer benchmark (scripts/bench-fleet.mjs).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Agent, setGlobalDispatcher } from 'undici';

const root = path.resolve(import.meta.dirname, '../..');
/** The programme's core consent (content/loyalty): given, it makes a customer a loyalty member. */
const LOYALTY_CORE_CONSENT = 'loyalty-core-cC6D';
const isRoot = process.getuid?.() === 0;

/**
 * Runs `run` against a started fleet with fetch trusting the fleet's certificate (`connections` per
 * origin), then stops the fleet whatever happened. Answers whether `run` ended without throwing (its
 * error is printed).
 */
export async function runOnFleet(fleet, run, { connections }) {
  try {
    setGlobalDispatcher(new Agent({ connect: { ca: fleet.ca }, connections }));
    await run();
    return true;
  } catch (error) {
    console.error(error);
    return false;
  } finally {
    await fleet.stop();
  }
}

/** A port nobody listens on right now (the kernel picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** The signals that stop the fleet with its caller. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Fills {{NAME}} in one of deploy/'s templates. */
export function fillTemplate(file, values) {
  return readFileSync(path.join(root, 'deploy', file), 'utf8').replace(/\{\{([A-Z_]+)\}\}/g, (_, name) => {
    if (!(name in values)) throw new Error(`${file}: no value for {{${name}}}`);
    return String(values[name]);
  });
}

/** What the fleet runs, by command → Debian package: the recipe's parts and the exporters of deploy/prometheus/. */
const FLEET_PACKAGES = {
  haproxy: 'haproxy',
  pgbouncer: 'pgbouncer',
  'prometheus-postgres-exporter': 'prometheus-postgres-exporter',
  'prometheus-node-exporter': 'prometheus-node-exporter',
};

/** Installs Debian's packages for the commands that are missing (command → package; the fleet's by default). */
export function ensurePackages(log = console.log, packages = FLEET_PACKAGES) {
  const missing = Object.keys(packages).filter((bin) => {
    try {
      execFileSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return;
  const names = missing.map((bin) => packages[bin]);
  if (!isRoot)
    throw new Error(`${missing.join(' and ')} missing: apt-get install -y ${names.join(' ')} (as root)`);
  log(`Installing ${names.join(' and ')} from Debian's packages…`);
  const install = () =>
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...names], {
      stdio: 'inherit',
    });
  try {
    install();
  } catch {
    // A fresh machine has no package lists yet.
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    install();
  }
}

function postgresBin() {
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql').sort((a, b) => b - a)
    : [];
  const version = versions.find((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));
  if (!version)
    throw new Error('No PostgreSQL server binaries in /usr/lib/postgresql (apt-get install postgresql)');
  return `/usr/lib/postgresql/${version}/bin`;
}

/** Runs a command as the postgres user when this process is root (PostgreSQL and PgBouncer refuse root). */
function asPostgres(command, args) {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

function run(command, args, options = {}) {
  const [cmd, argv] = asPostgres(command, args);
  return execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], ...options }).toString();
}

/** Sends one command to HAProxy's runtime API and answers its reply. */
function haproxyCommand(socketPath, command) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk));
    socket.on('end', () => resolve(reply));
    socket.on('error', reject);
    socket.write(`${command}\n`);
  });
}

/**
 * Starts the fleet. Options: instances (3), env (more
 * settings for every instance), log (a function for progress lines), publicPort (0 = a free one),
 * handleSignals (true: SIGINT, SIGTERM and SIGHUP stop the fleet, then the process).
 */
export async function startFleet(options = {}) {
  const count = options.instances ?? 3;
  const log = options.log ?? (() => undefined);
  if (
    !existsSync(path.join(root, 'apps/server/dist/server.js')) ||
    !existsSync(path.join(root, 'apps/web/dist/index.html'))
  )
    throw new Error('No build: run `npm run build` first');
  ensurePackages(log);

  const runDir = mkdtempSync('/tmp/roadpass-fleet-');
  chmodSync(runDir, 0o755);
  const children = new Set();
  const fleet = { runDir, children, instances: [], stopped: false };
  const onExit = () => {
    for (const child of children) child.kill('SIGKILL');
    killPgBouncer(runDir);
    try {
      fleet.pg?.stop('immediate');
    } catch {
      // not running
    }
    rmSync(runDir, { recursive: true, force: true });
  };
  process.on('exit', onExit);
  // A caller stopped by a signal (a benchmark killed, a CI timeout) stops its fleet too: `exit`
  // handlers do not run on a signal, and the fleet's processes, PostgreSQL among them, outlived it.
  // A caller with its own handlers (npm run fleet) says handleSignals: false.
  fleet.onSignal = (signal) => {
    void stopFleet(fleet, onExit).finally(() => process.exit(128 + os.constants.signals[signal]));
  };
  if (options.handleSignals !== false)
    for (const signal of STOP_SIGNALS) process.once(signal, fleet.onSignal);
  try {
    return await bringUp(fleet, options, count, log, onExit);
  } catch (error) {
    await stopFleet(fleet, onExit);
    throw error;
  }
}

async function bringUp(fleet, options, count, log, onExit) {
  const { runDir } = fleet;

  // Each instance has two ports: the customers' (behind HAProxy) and the management port for its
  // health checks and metrics, which HAProxy checks but never forwards to (deploy/README.md).
  // The exporters (deploy/prometheus/prometheus.yml) listen on loopback, as on a host's private side.
  const [pgPort, bouncerPort, publicPort, ...ports] = await Promise.all(
    [0, 0, options.publicPort ?? 0, ...Array.from({ length: 2 * count + 4 }, () => 0)].map((p) =>
      p ? p : freePort(),
    ),
  );
  const [
    haproxyMetricsPort,
    pgbouncerExporterPort,
    postgresExporterPort,
    nodeExporterPort,
    ...instancePorts
  ] = ports;
  Object.assign(fleet, { pgPort, bouncerPort, publicPort });
  fleet.exporters = {
    haproxy: `http://127.0.0.1:${haproxyMetricsPort}/metrics`,
    pgbouncer: `http://127.0.0.1:${pgbouncerExporterPort}/metrics`,
    postgres: `http://127.0.0.1:${postgresExporterPort}/metrics`,
    node: `http://127.0.0.1:${nodeExporterPort}/metrics`,
  };

  // 1. PostgreSQL: a cluster of its own (max_connections 100, as a default server).
  const bin = postgresBin();
  const pgData = path.join(runDir, 'pgdata');
  const pgSocketDir = path.join(runDir, 'pgsock');
  mkdirSync(pgSocketDir);
  if (isRoot) {
    const { uid, gid } = userIds('postgres');
    chownSync(runDir, uid, gid);
    chownSync(pgSocketDir, uid, gid);
  }
  log(`PostgreSQL: initdb in ${pgData}`);
  run(`${bin}/initdb`, [
    '-D',
    pgData,
    '-A',
    'trust',
    '-U',
    'postgres',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale',
    'C',
  ]);
  // wal_compression as deploy/README.md sets it (decision 0064), so that the faults meet the recipe's WAL.
  const pgOptions = `-p ${pgPort} -k ${pgSocketDir} -c listen_addresses=127.0.0.1 -c max_connections=100 -c shared_buffers=64MB -c wal_compression=lz4`;
  fleet.pg = {
    bin,
    data: pgData,
    start: () =>
      run(`${bin}/pg_ctl`, [
        '-D',
        pgData,
        '-w',
        '-l',
        path.join(runDir, 'postgres.log'),
        '-o',
        pgOptions,
        'start',
      ]),
    stop: (mode = 'fast') => run(`${bin}/pg_ctl`, ['-D', pgData, '-w', '-m', mode, 'stop']),
  };
  fleet.pg.start();
  const admin = new pg.Client({ host: '127.0.0.1', port: pgPort, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query(`create role roadpass login password 'fleet'`);
  await admin.query(`create database roadpass owner roadpass`);
  // The exporters' role: PostgreSQL's pg_monitor (statistics and settings, no customer data), and
  // PgBouncer's stats_users.
  await admin.query(`create role roadpass_monitor login password 'fleet' in role pg_monitor`);
  await admin.end();
  fleet.directUrl = `postgres://roadpass:fleet@127.0.0.1:${pgPort}/roadpass`;

  // 2. PgBouncer in transaction mode.
  // Server connections: PgBouncer's pool (30 + 5 reserve) + one listener per instance + one start-up
  // lock connection per instance while starting + tools; well under max_connections (100).
  writeFileSync(
    path.join(runDir, 'userlist.txt'),
    '"roadpass" "fleet"\n"roadpass_monitor" "fleet"\n"postgres" ""\n',
  );
  writeFileSync(
    path.join(runDir, 'pgbouncer.ini'),
    fillTemplate('pgbouncer.ini.template', {
      DB_NAME: 'roadpass',
      PG_HOST: '127.0.0.1',
      PG_PORT: pgPort,
      BIND_ADDRESS: '127.0.0.1',
      PGBOUNCER_PORT: bouncerPort,
      AUTH_TYPE: 'trust',
      RUN_DIR: runDir,
      SERVER_POOL_SIZE: 30,
      DB_USER: 'roadpass',
      STATS_USER: 'roadpass_monitor',
    }),
  );
  fleet.pgbouncer = spawnChild(
    fleet,
    'pgbouncer',
    ...asPostgres('pgbouncer', [path.join(runDir, 'pgbouncer.ini')]),
  );
  fleet.databaseUrl = `postgres://roadpass:fleet@127.0.0.1:${bouncerPort}/roadpass`;
  await waitForPort(bouncerPort);

  // The database side's exporters: PgBouncer's (deploy/pgbouncer-exporter.mjs, decision 0067),
  // PostgreSQL's and the host's (Debian's packages), as deploy/prometheus/prometheus.yml scrapes them.
  spawnChild(fleet, 'pgbouncer-exporter', process.execPath, ['deploy/pgbouncer-exporter.mjs'], {
    ...process.env,
    PGBOUNCER_URL: `postgres://roadpass_monitor:fleet@127.0.0.1:${bouncerPort}/pgbouncer`,
    LISTEN_ADDRESS: `127.0.0.1:${pgbouncerExporterPort}`,
  });
  spawnChild(
    fleet,
    'postgres-exporter',
    'prometheus-postgres-exporter',
    [`--web.listen-address=127.0.0.1:${postgresExporterPort}`, '--log.level=warn'],
    {
      ...process.env,
      DATA_SOURCE_NAME: `postgresql://roadpass_monitor:fleet@127.0.0.1:${pgPort}/roadpass?sslmode=disable`,
    },
  );
  // The nightly backup's outcome reaches Prometheus through the node exporter's textfile collector
  // (deploy/roadpass-backup.sh writes it there, as the postgres user).
  const textfileDir = path.join(runDir, 'textfile');
  mkdirSync(textfileDir);
  if (isRoot) {
    const { uid, gid } = userIds('postgres');
    chownSync(textfileDir, uid, gid);
  }
  spawnChild(fleet, 'node-exporter', 'prometheus-node-exporter', [
    `--web.listen-address=127.0.0.1:${nodeExporterPort}`,
    `--collector.textfile.directory=${textfileDir}`,
    '--log.level=warn',
  ]);

  /**
   * deploy/roadpass-backup.sh against this cluster, as on the database host (the postgres user, its
   * metrics for the node exporter): the backup's folder.
   */
  fleet.backup = () => {
    const output = run(path.resolve('deploy/roadpass-backup.sh'), [], {
      env: {
        ...process.env,
        PGHOST: '127.0.0.1',
        PGPORT: String(pgPort),
        PGUSER: 'postgres',
        PG_BIN: bin,
        BACKUP_DIR: path.join(runDir, 'backups'),
        TEXTFILE_DIR: textfileDir,
      },
    });
    const folder = /roadpass-backup: (\S+),/.exec(output)?.[1];
    if (!folder) throw new Error(`roadpass-backup.sh said: ${output}`);
    return folder;
  };

  /**
   * A replica restored from a backup by deploy/roadpass-restore.sh, streaming from this cluster
   * through a replication slot of its own (docs/operations.md#backup-and-restore); it stops with the
   * fleet.
   */
  fleet.startReplica = async (backup, slot = 'fleet_replica') => {
    const port = await freePort();
    const data = path.join(runDir, 'replica');
    const primary = new pg.Client({
      host: '127.0.0.1',
      port: pgPort,
      user: 'postgres',
      database: 'postgres',
    });
    await primary.connect();
    await primary.query('select pg_create_physical_replication_slot($1)', [slot]);
    await primary.end();
    execFileSync(
      path.resolve('deploy/roadpass-restore.sh'),
      [
        backup,
        data,
        '--standby',
        `host=127.0.0.1 port=${pgPort} user=postgres application_name=${slot}`,
        '--slot',
        slot,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const pgCtl = (...args) => run(`${bin}/pg_ctl`, ['-D', data, '-w', ...args]);
    fleet.replica = { port, slot, stop: (mode = 'fast') => pgCtl('-m', mode, 'stop') };
    pgCtl(
      '-l',
      path.join(runDir, 'replica.log'),
      '-o',
      `-p ${port} -k ${pgSocketDir} -c listen_addresses=127.0.0.1`,
      'start',
    );
    return fleet.replica;
  };

  // 3. A self-signed certificate for HAProxy (TLS ends at the load balancer).
  const key = path.join(runDir, 'tls.key');
  const cert = path.join(runDir, 'tls.crt');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  fleet.ca = readFileSync(cert, 'utf8');
  writeFileSync(path.join(runDir, 'tls.pem'), fleet.ca + readFileSync(key, 'utf8'));
  fleet.url = `https://localhost:${publicPort}`;

  // 4. The instances (all at once: they take turns for migrations).
  const loyaltySecret = randomBytes(24).toString('base64url');
  fleet.loyaltyClientSecret = loyaltySecret;
  fleet.instanceEnv = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PUBLIC_URL: fleet.url,
    TRUST_PROXY: 'true',
    DATABASE_URL: fleet.databaseUrl,
    DATABASE_DIRECT_URL: fleet.directUrl,
    DATABASE_POOL_SIZE: '10',
    SEED_DEMO_DATA: 'false',
    LOYALTY_CLIENT_SECRET: loyaltySecret,
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    ...options.env,
  };
  fleet.instances = Array.from({ length: count }, (_, i) => ({
    name: `instance${i + 1}`,
    port: instancePorts[2 * i],
    managementPort: instancePorts[2 * i + 1],
    process: undefined,
  }));
  for (const instance of fleet.instances) startInstance(fleet, instance);

  // 5. HAProxy.
  writeFileSync(
    path.join(runDir, 'haproxy.cfg'),
    fillTemplate('haproxy.cfg.template', {
      RUN_DIR: runDir,
      BIND_ADDRESS: '127.0.0.1',
      PUBLIC_PORT: publicPort,
      MAX_CONNECTIONS: 4000,
      TLS_PEM: path.join(runDir, 'tls.pem'),
      METRICS_ADDRESS: '127.0.0.1',
      METRICS_PORT: haproxyMetricsPort,
      SERVERS: fleet.instances
        .map((s) => `  server ${s.name} 127.0.0.1:${s.port} check port ${s.managementPort}`)
        .join('\n'),
    }),
  );
  fleet.haproxy = spawnChild(fleet, 'haproxy', 'haproxy', ['-f', path.join(runDir, 'haproxy.cfg'), '-db']);
  fleet.command = (command) => haproxyCommand(path.join(runDir, 'haproxy.sock'), command);
  await waitForPort(publicPort);
  await everyInstanceUp(fleet, fleet.command, 300_000, 'HAProxy');
  log(
    `Fleet up: ${fleet.url} → ${fleet.instances.map((s) => s.port).join(', ')}; PgBouncer ${bouncerPort}; PostgreSQL ${pgPort}; run directory ${runDir}`,
  );

  fleet.stop = () => stopFleet(fleet, onExit);
  fleet.states = () => serverStates(fleet);
  fleet.restartInstance = (instance) => rollingRestart(fleet, instance);
  /** kill -9; answers when the process is gone (its exit seen), with that moment (Date.now()). */
  fleet.killInstance = (instance) => {
    // The test starts it again itself (systemd would, after RestartSec).
    const child = instance.process;
    child.expectedExit = true;
    const gone = new Promise((resolve) => child.once('exit', () => resolve(Date.now())));
    child.kill('SIGKILL');
    return gone;
  };
  fleet.startInstance = (instance) => startInstance(fleet, instance);
  fleet.waitUntil = waitUntil;
  fleet.createCustomers = (count, password) => createCustomers(fleet, count, password);
  fleet.startBalancer = (name, edit) => startBalancer(fleet, name, edit);
  fleet.reconfigureBalancer = (edit) => reconfigureBalancer(fleet, edit);
  return fleet;
}

/**
 * `count` German customers fleet-1@example.com… with `password` (hashed at the test suites' cost, so
 * that signing a thousand in takes seconds), each a loyalty member (the core consent given), written
 * straight into PostgreSQL. Answers their ids, addresses and legal entity.
 */
async function createCustomers(fleet, count, password) {
  process.env.NODE_ENV = 'test';
  const { hashPassword } = await import(path.join(root, 'apps/server/dist/lib/password-hash.js'));
  const hash = await hashPassword(password);
  const db = new pg.Client({ connectionString: fleet.directUrl });
  await db.connect();
  try {
    const { rows: entity } = await db.query(
      `select legal_entity_id from legal_entities where iso_country = 'DE'`,
    );
    const legalEntityId = entity[0].legal_entity_id;
    const { rows } = await db.query(
      `insert into customers (email, password_hash, legal_entity_id, language, salutation, first_name, last_name,
         birth_date, phone, address_street, address_city, address_zip_code, address_country_iso_code, created_at, updated_at)
       select 'fleet-' || n || '@example.com', $1, $2, 'de_DE', 'FRAU', 'Flotte', 'Kunde' || translate(n::text, '0123456789', 'abcdefghij'), '1990-06-01',
         '+4915123456789', 'Unter den Linden 1', 'Berlin', '10115', 'DE', now(), now()
       from generate_series(1, $3::int) n
       returning id, email`,
      [hash, legalEntityId, count],
    );
    await db.query(
      `insert into customer_consents (customer_id, slug, legal_entity_id, granted)
       select id, $1, $2, true from customers where email like 'fleet-%'`,
      [LOYALTY_CORE_CONSENT, legalEntityId],
    );
    return rows.map((r) => ({ id: r.id, email: r.email, legalEntityId }));
  } finally {
    await db.end();
  }
}

/**
 * A second HAProxy in front of the same instances (a benchmark's variant): the fleet's configuration
 * passed through `edit`, on a free port and a runtime socket of its own. Answers its address once
 * it reports every instance UP, and stops with the fleet.
 */
async function startBalancer(fleet, name, edit) {
  const port = await freePort();
  const file = path.join(fleet.runDir, `haproxy-${name}.cfg`);
  const text = edit(readFileSync(path.join(fleet.runDir, 'haproxy.cfg'), 'utf8'))
    .replace(/^(\s*bind \S+:)\d+/m, `$1${port}`)
    .replace(/haproxy\.sock/, `haproxy-${name}.sock`)
    // One metrics frontend is enough (its port is the first HAProxy's).
    .replace(/^frontend prometheus\n(?: {2}.*\n)+/m, '');
  writeFileSync(file, text);
  spawnChild(fleet, `haproxy ${name}`, 'haproxy', ['-f', file, '-db']);
  await waitForPort(port);
  const command = (line) => haproxyCommand(path.join(fleet.runDir, `haproxy-${name}.sock`), line);
  await everyInstanceUp(fleet, command, 60_000, `HAProxy ${name}`);
  return { url: `https://localhost:${port}` };
}

/**
 * Restarts the fleet's HAProxy, on the same address, with the recipe's configuration passed through
 * `edit` (a benchmark's variant: the customers' origin, and so the sign-in, stay the same). Answers
 * once every instance is UP in it again.
 */
async function reconfigureBalancer(fleet, edit) {
  const file = path.join(fleet.runDir, 'haproxy.cfg');
  fleet.recipeBalancerConfig ??= readFileSync(file, 'utf8');
  const old = fleet.haproxy;
  old.expectedExit = true;
  const exited = new Promise((resolve) => (old.exitCode !== null ? resolve() : old.once('exit', resolve)));
  old.kill('SIGTERM');
  await exited;
  writeFileSync(file, edit(fleet.recipeBalancerConfig));
  fleet.haproxy = spawnChild(fleet, 'haproxy', 'haproxy', ['-f', file, '-db']);
  await waitForPort(fleet.publicPort);
  await everyInstanceUp(fleet, fleet.command, 60_000, 'the reconfigured HAProxy');
}

/** Waits until a HAProxy (its runtime API: `command`) reports every instance UP; a socket not open yet counts as not yet. */
async function everyInstanceUp(fleet, command, timeoutMs, balancer) {
  await waitUntil(
    async () => {
      const states = await serverStates(fleet, command).catch(() => undefined);
      return states !== undefined && Object.values(states).every((s) => s.status === 'UP');
    },
    timeoutMs,
    `every instance UP in ${balancer}`,
  );
}

function userIds(user) {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${user}:`));
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function spawnChild(fleet, name, command, args, env) {
  const child = spawn(command, args, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: env ?? process.env,
  });
  let tail = '';
  child.stderr.on('data', (chunk) => {
    tail = (tail + chunk).slice(-4000);
    if (process.env.FLEET_VERBOSE) process.stderr.write(`[${name}] ${chunk}`);
  });
  child.tail = () => tail;
  fleet.children.add(child);
  child.on('exit', (code, signal) => {
    fleet.children.delete(child);
    if (!fleet.stopped && !child.expectedExit && code !== 0)
      process.stderr.write(`[${name}] exited (${signal ?? code}):\n${tail}\n`);
  });
  return child;
}

/** Starts an instance; like systemd's Restart=on-failure (roadpass@.service), one that fails is started again after 1 s. */
function startInstance(fleet, instance) {
  const child = spawnChild(fleet, instance.name, process.execPath, ['apps/server/dist/server.js'], {
    ...process.env,
    ...fleet.instanceEnv,
    PORT: String(instance.port),
    MANAGEMENT_PORT: String(instance.managementPort),
  });
  instance.process = child;
  child.on('exit', () => {
    if (fleet.stopped || child.expectedExit || instance.process !== child) return;
    setTimeout(() => {
      if (!fleet.stopped && instance.process === child) startInstance(fleet, instance);
    }, 1000).unref();
  });
  return child;
}

async function waitForPort(port, timeoutMs = 30_000) {
  await waitUntil(
    () =>
      new Promise((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
      }),
    timeoutMs,
    `port ${port}`,
  );
}

export async function waitUntil(check, timeoutMs, what, everyMs = 50) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await sleep(everyMs);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The backend's servers as HAProxy sees them: status (UP, DOWN, DRAIN, MAINT…) and current sessions. */
async function serverStates(fleet, command = fleet.command) {
  const csv = await command('show stat');
  const [header, ...rows] = csv.replace(/^# /, '').trim().split('\n');
  const names = header.split(',');
  const states = {};
  for (const row of rows) {
    const cells = Object.fromEntries(row.split(',').map((v, i) => [names[i], v]));
    if (cells.pxname !== 'roadpass' || cells.svname === 'BACKEND' || cells.svname === 'FRONTEND') continue;
    states[cells.svname] = { status: cells.status, current: Number(cells.scur), total: Number(cells.stot) };
  }
  return states;
}

/**
 * Restarts one instance without failing a request: drain it in HAProxy (no new requests), wait for
 * what is in flight, SIGTERM, start it again, wait until HAProxy's health check finds it ready, then
 * give it traffic again. The same steps as deploy/README.md#rolling-restart.
 */
async function rollingRestart(fleet, instance) {
  await fleet.command(`set server roadpass/${instance.name} state drain`);
  await waitUntil(
    async () => (await serverStates(fleet))[instance.name].current === 0,
    30_000,
    `${instance.name} drained`,
  );
  const old = instance.process;
  old.expectedExit = true;
  const exited = new Promise((resolve) => old.once('exit', resolve));
  old.kill('SIGTERM');
  await exited;
  startInstance(fleet, instance);
  await fleet.command(`set server roadpass/${instance.name} state ready`);
  await waitUntil(
    async () => (await serverStates(fleet))[instance.name].status === 'UP',
    180_000,
    `${instance.name} UP`,
  );
}

async function stopFleet(fleet, onExit) {
  if (fleet.stopped) return;
  fleet.stopped = true;
  const exits = [];
  for (const child of fleet.children) {
    exits.push(new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve))));
    child.kill('SIGTERM');
  }
  await Promise.race([Promise.all(exits), sleep(10_000)]);
  for (const child of fleet.children) child.kill('SIGKILL');
  killPgBouncer(fleet.runDir);
  try {
    fleet.replica?.stop('immediate');
  } catch {
    // already stopped
  }
  try {
    fleet.pg?.stop('immediate');
  } catch {
    // already stopped
  }
  process.off('exit', onExit);
  for (const signal of STOP_SIGNALS) process.off(signal, fleet.onSignal);
  rmSync(fleet.runDir, { recursive: true, force: true });
}

function killPgBouncer(runDir) {
  const pidFile = path.join(runDir, 'pgbouncer.pid');
  if (!existsSync(pidFile)) return;
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
  } catch {
    // gone
  }
}
