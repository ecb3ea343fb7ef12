#!/usr/bin/env node
// npm run test:fleet: the fleet of `npm run fleet` (3 instances, HAProxy, PgBouncer, a throwaway
// PostgreSQL cluster) under mixed load from FLEET_CUSTOMERS (1 000) different customers — sign-ins,
// refreshes, reads, profile and consent writes, partner codes, event batches — through three faults:
//   1. a rolling restart of every instance, one at a time: no customer request fails;
//   2. kill -9 of one instance: only requests that were in flight when it died fail, HAProxy stops
//      sending to it within 2 s, and no acknowledged write is lost;
//   3. a PostgreSQL restart: errors only during the outage; the instances recover without a restart,
//      their change listeners listen again and their caches follow other instances' writes.
// Sessions and tokens work on every instance throughout (leastconn spreads each customer's calls;
// the end checks every instance directly). Every acknowledged write (profile, consent, partner code,
// event) is read back from PostgreSQL at the end. The exporters Prometheus scrapes (HAProxy's,
// PgBouncer's, PostgreSQL's, the host's) follow the faults, and export every metric that
// deploy/prometheus/fleet-alerts.yml and the Grafana dashboard name. Then the recipe's backup
// (deploy/roadpass-backup.sh) restored as a streaming replica (deploy/roadpass-restore.sh) holds what
// the primary holds, and the exporters show the backup and the replica. Needs a build (npm run build). Exits 1 on a failed
// check. FLEET_QUICK=1 (CI) keeps the 1 000 customers and every check but uses half the load
// generators and shorter pauses between the phases, and starts the faults once 200 customers have
// signed in: the other 800 sign in during the faults (FLEET_WARM).
import { randomBytes } from 'node:crypto';
import http2 from 'node:http2';
import tls from 'node:tls';
import pg from 'pg';
import { apiPaths, appPaths } from '@roadpass/contracts';
import { httpSignIn } from '../http-sign-in.mjs';
import { checkExported, namedMetrics, parseExposition, promtool, sampleValue } from '../prometheus-names.mjs';
import { ensurePackages, runOnFleet, startFleet } from './fleet.mjs';

const CUSTOMERS = Number(process.env.FLEET_CUSTOMERS ?? 1000);
const QUICK = process.env.FLEET_QUICK === '1';
const WORKERS = Number(process.env.FLEET_WORKERS ?? (QUICK ? 12 : 24));
/**
 * Customers who have signed in before the faults begin. In the quick (CI) run 200: the other 800
 * sign in for the first time during the faults, so that sign-ins are part of the load each fault
 * meets; the test still ends only when all 1 000 have signed in and used the API.
 */
const WARM = Math.min(CUSTOMERS, Number(process.env.FLEET_WARM ?? (QUICK ? 200 : CUSTOMERS)));
/** A pause between phases, shorter in the quick (CI) run. */
const pause = (ms) => sleep(QUICK ? ms / 2 : ms);
const PASSWORD = 'Fleet-Test-2026!';
const PARTNER_REWARD = 'velovia-bike-rides';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const started = Date.now();
const log = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}`);

const problems = [];
const codeChanged = [];
const check = (ok, text) => {
  log(`${ok ? 'ok  ' : 'FAIL'} ${text}`);
  if (!ok) problems.push(text);
};

// promtool lints the scrape of deploy/pgbouncer-exporter.mjs (Debian's prometheus package).
ensurePackages(log, { promtool: 'prometheus' });
const fleet = await startFleet({
  instances: 3,
  log,
  // One load generator is one client address: the per-address limit would throttle the test itself.
  env: { RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CUSTOMER: '0' },
});
let exitCode = (await runOnFleet(fleet, run, { connections: 64 })) ? 0 : 1;
if (problems.length > 0) {
  console.error(`\n${problems.length} check(s) failed:\n- ${problems.join('\n- ')}`);
  exitCode = 1;
}
log(exitCode === 0 ? 'fleet test passed' : 'fleet test failed');
process.exit(exitCode);

async function run() {
  await checkOperatorEndpoints();
  await checkAccessLog();
  // Measured on an idle connection of its own while the load runs (about 10 s).
  const keepAlive = checkKeepAlive();
  const customers = await fleet.createCustomers(CUSTOMERS, PASSWORD);
  log(`${customers.length} customers created`);

  // --- Load: every request is recorded with its start, end and outcome.
  const requests = [];
  const acknowledgedCities = new Map(); // customer id → { acked, attemptedAfter: Set }
  const acknowledgedEvents = [];
  const acknowledgedConsents = new Map(); // customer id → { acked, attemptedAfter: Set }
  const acknowledgedCodes = new Map(); // customer id → the partner code an answer gave
  let stop = false;

  const call = async (kind, url, init = {}) => {
    const entry = { kind, start: Date.now(), end: 0, ok: false, status: 0 };
    requests.push(entry);
    try {
      const res = await fetch(new URL(url, fleet.url), { ...init, signal: AbortSignal.timeout(20_000) });
      entry.status = res.status;
      const body = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text();
      entry.ok = res.ok;
      if (!res.ok) entry.detail = JSON.stringify(body).slice(0, 300);
      return { res, body, entry };
    } catch (error) {
      entry.error = String(error?.cause?.code ?? error?.message ?? error);
      return { res: undefined, body: undefined, entry };
    } finally {
      entry.end = Date.now();
    }
  };

  const signIn = async (customer) => {
    const entry = { kind: 'sign-in', start: Date.now(), end: 0, ok: false };
    requests.push(entry);
    try {
      const tokens = await httpSignIn(fleet.url, customer.email, PASSWORD);
      customer.access = tokens.access_token;
      customer.refresh = tokens.refresh_token;
      customer.tokenAt = Date.now();
      entry.ok = true;
    } catch (error) {
      entry.error = String(error?.message ?? error);
    } finally {
      entry.end = Date.now();
    }
  };

  /** Customers whose sign-in failed, each with the time from which it is tried again. */
  const retry = [];
  const visit = async (customer) => {
    if (!customer.access) {
      await signIn(customer);
      if (!customer.access) {
        // A sign-in a fault cut short (in flight on a killed instance, or during the outage) is tried
        // again a second later, as the customer would, so that every customer ends up signed in.
        retry.push({ customer, after: Date.now() + 1000 });
        return;
      }
    }
    const auth = { authorization: `Bearer ${customer.access}` };
    await call('read login status', '/api/customer/cuda/customer/v2/login/own/status', { headers: auth });
    const personal = await call('read personal data', '/api/customer/cuda/customer/personaldata/own', {
      headers: auth,
    });
    await call('read loyalty', `/api/customer/loyalty-service/customer/${customer.id}`, { headers: auth });
    const csrf = personal.res?.headers.get('x-csrf-token');
    if (personal.entry.ok && csrf) {
      const write = { ...auth, 'content-type': 'application/json', 'x-csrf-token': csrf };
      const city = `Berlin ${letters()}`;
      const profile = { ...personal.body.body.PersonalDataRTO, addressCity: city };
      const record = acknowledgedCities.get(customer.id) ?? { acked: undefined, attemptedAfter: new Set() };
      acknowledgedCities.set(customer.id, record);
      record.attemptedAfter.add(city);
      const put = await call('write profile', '/api/customer/cuda/customer/personaldata/own', {
        method: 'PUT',
        headers: write,
        body: JSON.stringify(profile),
      });
      if (put.entry.ok) {
        record.acked = city;
        record.attemptedAfter = new Set();
      }
      const granted = Math.random() < 0.5;
      const consent = acknowledgedConsents.get(customer.id) ?? {
        acked: undefined,
        attemptedAfter: new Set(),
      };
      acknowledgedConsents.set(customer.id, consent);
      consent.attemptedAfter.add(granted);
      const patch = await call(
        'write consent',
        `/api/customer/consents/v1/customers/${customer.id}/consents/marketing-sms-Sm3q`,
        {
          method: 'PATCH',
          headers: write,
          body: JSON.stringify({ legalEntityId: customer.legalEntityId, granted }),
        },
      );
      if (patch.entry.ok) {
        consent.acked = granted;
        consent.attemptedAfter = new Set();
      }
      const code = await call(
        'partner code',
        `/api/customer/loyalty-service/customer/${customer.id}/partner-code/${PARTNER_REWARD}`,
        {
          method: 'POST',
          headers: write,
        },
      );
      if (code.entry.ok) {
        const given = code.body?.body?.code ?? code.body?.code;
        const earlier = acknowledgedCodes.get(customer.id);
        // The code is made once: every later answer must give the same one.
        if (earlier !== undefined && earlier !== given) codeChanged.push(customer.id);
        acknowledgedCodes.set(customer.id, given);
      }
    }
    // A refresh one visit in three, and whenever the access token (300 s) is a minute old, so it never runs out.
    if (Math.random() < 0.3 || Date.now() - (customer.tokenAt ?? 0) > 60_000) {
      const refreshed = await call('refresh', '/auth/realms/customer/protocol/openid-connect/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: customer.refresh,
          client_id: 'portal-client',
        }),
      });
      if (refreshed.entry.ok) {
        customer.access = refreshed.body.access_token;
        customer.refresh = refreshed.body.refresh_token ?? customer.refresh;
        customer.tokenAt = Date.now();
      }
    }
  };

  let next = 0;
  /**
   * Customers being visited now. One customer's visits never overlap, as one person's app makes them
   * one after the other: two at once would use one refresh token twice, and the checks of the last
   * acknowledged write could not tell which of two overlapping writes was the last (a retried
   * customer met by the round again overlapped so once, and the profile check failed: explained by
   * the overlap, not proven).
   */
  const visiting = new Set();
  const worker = async () => {
    while (!stop) {
      const again = retry[0] && retry[0].after <= Date.now() ? retry.shift().customer : undefined;
      const customer = again ?? customers[next++ % customers.length];
      // Being visited: the visit going on signs them in, or asks for a retry itself.
      if (visiting.has(customer.id)) continue;
      visiting.add(customer.id);
      try {
        await visit(customer);
      } finally {
        visiting.delete(customer.id);
      }
    }
  };

  // The rental system's token (client credentials), fetched again before it expires, as the rental system would.
  const fetchServiceToken = () =>
    fetch(new URL('/auth/realms/customer/protocol/openid-connect/token', fleet.url), {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`rental-system:${fleet.loyaltyClientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'loyalty:events' }),
    }).then(async (r) =>
      r.ok ? (await r.json()).access_token : Promise.reject(new Error(`service token ${r.status}`)),
    );
  let serviceToken = await fetchServiceToken();
  let serviceTokenAt = Date.now();
  let batchNo = 0;
  const batchSender = async () => {
    while (!stop) {
      const events = Array.from({ length: 50 }, (_, i) => ({
        sourceId: `fleet-${batchNo}-${i}`,
        customerId: customers[(batchNo * 50 + i) % customers.length].id,
        type: 'rental-completed',
        points: 3,
      }));
      batchNo += 1;
      // Access tokens live ACCESS_TOKEN_TTL_SECONDS (300 s): a new one a minute before.
      if (Date.now() - serviceTokenAt > 240_000) {
        serviceToken = await fetchServiceToken();
        serviceTokenAt = Date.now();
      }
      const sent = await call('event batch', '/api/internal/loyalty/events', {
        method: 'POST',
        headers: { authorization: `Bearer ${serviceToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ events }),
      });
      if (sent.entry.ok) acknowledgedEvents.push(...events.map((e) => e.sourceId));
      await sleep(200);
    }
  };

  const failuresBetween = (from, to) =>
    requests.filter((r) => r.end && !r.ok && r.start >= from && r.start <= to && r.status !== 429);

  const load = [...Array.from({ length: WORKERS }, worker), batchSender()];
  // The first WARM customers sign in before the faults count; the rest during them.
  await fleet.waitUntil(() => next >= WARM, 900_000, `the first ${WARM} customers visited`, 200);
  const signIns = requests.filter((r) => r.kind === 'sign-in' && r.ok).length;
  log(`warm: ${requests.length} requests, ${signIns} sign-ins`);
  const warm = failuresBetween(0, Date.now());
  check(warm.length === 0, `no failed request before the faults (${warm.length}: ${summary(warm)})`);

  // 1. Rolling restart.
  const rollFrom = Date.now();
  for (const instance of fleet.instances) {
    await fleet.restartInstance(instance);
    log(`${instance.name} restarted`);
  }
  const rollTo = Date.now();
  const rollFailed = failuresBetween(rollFrom, rollTo);
  const rollCount = requests.filter((r) => r.start >= rollFrom && r.start <= rollTo).length;
  check(
    rollFailed.length === 0,
    `rolling restart: 0 of ${rollCount} requests failed (${summary(rollFailed)})`,
  );

  // 2. kill -9. SIGKILL takes effect when the kernel next runs the process: the instance is gone when
  // its exit is seen (waitpid). A request HAProxy handed to it before then was in flight on it.
  const victim = fleet.instances[1];
  await pause(1000);
  const killedAt = Date.now();
  const gone = fleet.killInstance(victim);
  let downAt;
  await fleet.waitUntil(
    async () => (await fleet.states())[victim.name].status.startsWith('DOWN'),
    10_000,
    'DOWN',
    20,
  );
  downAt = Date.now();
  // What RoadpassBalancerFewInstances reads follows: HAProxy's exporter counts one instance fewer.
  const balancerDuringKill = await scrapeExporter('haproxy');
  const diedAt = await gone;
  log(`killed ${victim.name}: signal sent at +0 ms, exit seen at +${diedAt - killedAt} ms`);
  const downAfter = downAt - killedAt;
  check(downAfter <= 2000, `kill -9: HAProxy took ${victim.name} out after ${downAfter} ms (≤ 2000)`);
  const activeDuringKill = sampleValue(balancerDuringKill, 'haproxy_backend_active_servers', {
    proxy: 'roadpass',
  });
  const victimDown = sampleValue(balancerDuringKill, 'haproxy_server_status', {
    proxy: 'roadpass',
    server: victim.name,
    state: 'DOWN',
  });
  check(
    activeDuringKill === fleet.instances.length - 1 && victimDown === 1,
    `kill -9: HAProxy's exporter showed ${activeDuringKill} instances in service (${fleet.instances.length - 1}) and ${victim.name} DOWN (${victimDown})`,
  );
  await pause(2000);
  const killTo = Date.now();
  const afterDeath = failuresBetween(diedAt, killTo);
  const inFlight = requests.filter((r) => r.start < diedAt && r.end >= killedAt && !r.ok && r.status !== 429);
  const killWindow = requests.filter((r) => r.start >= diedAt && r.start <= killTo).length;
  check(
    afterDeath.length === 0,
    `kill -9: 0 of ${killWindow} requests started after ${victim.name} was gone failed (${afterDeath.length}: ${summary(afterDeath)}); ${inFlight.length} in flight on it failed (${summary(inFlight)})`,
  );
  fleet.startInstance(victim);
  await fleet.waitUntil(
    async () => (await fleet.states())[victim.name].status === 'UP',
    180_000,
    'UP again',
    100,
  );
  log(`${victim.name} back`);

  // 3. PostgreSQL restart.
  await pause(1000);
  const pids = fleet.instances.map((instance) => instance.process.pid);
  const outageFrom = Date.now();
  fleet.pg.stop('fast');
  // What RoadpassPostgresDown reads follows: PostgreSQL's exporter cannot connect; PgBouncer's still
  // answers (PgBouncer itself is up).
  const [postgresDuringOutage, pgbouncerDuringOutage] = await Promise.all([
    scrapeExporter('postgres'),
    scrapeExporter('pgbouncer'),
  ]);
  await sleep(Math.max(0, 1500 - (Date.now() - outageFrom)));
  fleet.pg.start();
  const outageTo = Date.now();
  log(`PostgreSQL was down ${outageTo - outageFrom} ms`);
  check(
    sampleValue(postgresDuringOutage, 'pg_up') === 0 &&
      sampleValue(pgbouncerDuringOutage, 'pgbouncer_up') === 1,
    `PostgreSQL restart: during the outage its exporter said pg_up ${sampleValue(postgresDuringOutage, 'pg_up')} (0), PgBouncer's pgbouncer_up ${sampleValue(pgbouncerDuringOutage, 'pgbouncer_up')} (1)`,
  );
  // The listeners come back (they retry every 250 ms for the first 10 s of a loss: change-listener.ts).
  await fleet.waitUntil(
    async () => (await listeners(fleet)) === fleet.instances.length,
    20_000,
    'every change listener listening again',
    200,
  );
  const listenersAt = Date.now();
  log(`listeners back ${listenersAt - outageTo} ms after the restart`);
  // HAProxy takes an instance out after two failed readiness checks and back after two good ones
  // (deploy/haproxy.cfg.template: 250 ms apart while it is out); readiness asks the database through
  // PgBouncer (which tries the server again 0.25 s after a failed login, server_login_retry) and
  // wants the change listener listening. When the outage lasted long enough for HAProxy to take
  // every instance out, customers wait for all of that (1 Dec: 1.4–2.8 s after PostgreSQL was back,
  // with a second's login retry, checks 500 ms apart and the listener's doubling waits; 0.6–0.8 s
  // since). So the outage lasts until the listeners listen and HAProxy has every instance in service
  // again, which must be within 2 s of PostgreSQL's return; +1 s for connections being opened then.
  await fleet.waitUntil(
    async () => Object.values(await fleet.states()).every((state) => state.status === 'UP'),
    20_000,
    'every instance UP in HAProxy again',
    100,
  );
  const recoveredAt = Date.now();
  check(
    recoveredAt - outageTo <= 2000,
    `PostgreSQL restart: HAProxy had every instance in service again ${recoveredAt - outageTo} ms after PostgreSQL was back (≤ 2000)`,
  );
  await pause(3000);
  // After that, nothing may fail.
  const settledFrom = Math.max(listenersAt, recoveredAt) + 1000;
  const settledTo = Date.now();
  const afterOutage = failuresBetween(settledFrom, settledTo);
  const duringOutage = failuresBetween(outageFrom, settledFrom);
  const lastFailure = Math.max(outageFrom, ...duringOutage.map((r) => r.end));
  const served = requests.filter((r) => r.start >= settledFrom && r.start <= settledTo && r.ok).length;
  check(
    afterOutage.length === 0 && served > 0,
    `PostgreSQL restart: errors only during the outage (${duringOutage.length} then: ${summary(duringOutage, false)}; the last ended ${lastFailure - outageTo} ms after PostgreSQL was back; ${afterOutage.length} of ${served + afterOutage.length} failed after: ${summary(afterOutage)})`,
  );
  // What the instances answered meanwhile is an outage's 503 with Retry-After (try again), never a
  // 500 (a bug): HAProxy's own 502/503/504 aside, no answer of the app says 500.
  const answeredAsBug = duringOutage.filter((r) => r.status === 500);
  check(
    answeredAsBug.length === 0,
    `PostgreSQL restart: the app answered the outage 503, never 500 (${answeredAsBug.length} × 500: ${summary(answeredAsBug)})`,
  );
  check(
    fleet.instances.every(
      (instance, i) => instance.process.pid === pids[i] && instance.process.exitCode === null,
    ),
    `PostgreSQL restart: every instance recovered without a restart (same processes: ${pids.join(', ')})`,
  );

  // Everyone has signed in before the load stops (usually long before: during the faults).
  await fleet.waitUntil(
    () => customers.every((customer) => customer.access),
    900_000,
    'every customer signed in',
    200,
  );
  const allSignIns = requests.filter((r) => r.kind === 'sign-in');
  log(
    `every customer signed in: ${allSignIns.filter((r) => r.ok).length} sign-ins, ${allSignIns.filter((r) => r.start > rollFrom).length} of them during the faults, ${allSignIns.filter((r) => !r.ok).length} failed and tried again`,
  );
  stop = true;
  await Promise.all(load);

  // Caches follow other instances' writes again: write on one instance, read on the others.
  const probe = customers[7];
  const direct = (instance) => `http://127.0.0.1:${instance.port}`;
  const authProbe = { authorization: `Bearer ${probe.access}` };
  for (const instance of fleet.instances) {
    await fetch(`${direct(instance)}/api/customer/cuda/customer/v2/login/own/status`, { headers: authProbe });
  }
  const before = await fetch(`${direct(fleet.instances[0])}/api/customer/cuda/customer/personaldata/own`, {
    headers: authProbe,
  });
  const profile = (await before.json()).body.PersonalDataRTO;
  const newName = `Fleet${letters()}`;
  const put = await fetch(`${direct(fleet.instances[0])}/api/customer/cuda/customer/personaldata/own`, {
    method: 'PUT',
    headers: {
      ...authProbe,
      'content-type': 'application/json',
      'x-csrf-token': before.headers.get('x-csrf-token'),
    },
    body: JSON.stringify({ ...profile, firstName: newName }),
  });
  check(put.ok, `probe write on ${fleet.instances[0].name}: ${put.status}`);
  await sleep(500);
  for (const instance of fleet.instances.slice(1)) {
    const status = await fetch(`${direct(instance)}/api/customer/cuda/customer/v2/login/own/status`, {
      headers: authProbe,
    }).then((r) => r.json());
    check(
      JSON.stringify(status).includes(newName),
      `after the PostgreSQL restart, ${instance.name}'s login status shows the name written on ${fleet.instances[0].name}`,
    );
  }

  // Sessions and tokens on every instance.
  const sample = customers.filter((c) => c.access).slice(0, 50);
  let tokenFailures = 0;
  for (const customer of sample) {
    for (const instance of fleet.instances) {
      const res = await fetch(`${direct(instance)}/api/customer/cuda/customer/v2/login/own/status`, {
        headers: { authorization: `Bearer ${customer.access}` },
      });
      if (!res.ok) tokenFailures += 1;
    }
  }
  check(
    tokenFailures === 0,
    `the last tokens of ${sample.length} customers work on all ${fleet.instances.length} instances`,
  );

  // No acknowledged write lost (a new connection: the first one did not survive PostgreSQL's restart).
  const db = new pg.Client({ connectionString: fleet.directUrl });
  await db.connect();
  const { rows } = await db.query('select id, address_city from customers where id = any($1)', [
    [...acknowledgedCities.keys()],
  ]);
  const lost = rows.filter((row) => {
    const record = acknowledgedCities.get(row.id);
    return (
      record.acked !== undefined &&
      row.address_city !== record.acked &&
      !record.attemptedAfter.has(row.address_city)
    );
  });
  const ackedProfiles = [...acknowledgedCities.values()].filter((r) => r.acked).length;
  // A failure names what it found, so that a lost write can be told from a test's mistake.
  const lostExamples = lost
    .slice(0, 3)
    .map(
      (row) => `${row.id}: stored ${row.address_city}, acknowledged ${acknowledgedCities.get(row.id).acked}`,
    );
  check(
    lost.length === 0,
    `no acknowledged profile write lost (${ackedProfiles} customers' last writes checked${
      lost.length > 0 ? `; ${lost.length} differ, e.g. ${lostExamples.join('; ')}` : ''
    })`,
  );
  const { rows: consentRows } = await db.query(
    `select customer_id, granted from customer_consents where slug = 'marketing-sms-Sm3q' and customer_id = any($1)`,
    [[...acknowledgedConsents.keys()]],
  );
  const storedConsent = new Map(consentRows.map((r) => [r.customer_id, r.granted]));
  const ackedConsents = [...acknowledgedConsents.entries()].filter(([, r]) => r.acked !== undefined);
  const lostConsents = ackedConsents.filter(
    ([id, r]) => storedConsent.get(id) !== r.acked && !r.attemptedAfter.has(storedConsent.get(id)),
  );
  check(
    lostConsents.length === 0,
    `no acknowledged consent write lost (${ackedConsents.length} customers' last answers checked, ${lostConsents.length} differ)`,
  );
  const { rows: codeRows } = await db.query(
    `select customer_id, code from loyalty_partner_codes where slug = $1 and customer_id = any($2)`,
    [PARTNER_REWARD, [...acknowledgedCodes.keys()]],
  );
  const storedCode = new Map(codeRows.map((r) => [r.customer_id, r.code]));
  const lostCodes = [...acknowledgedCodes.entries()].filter(([id, code]) => storedCode.get(id) !== code);
  check(
    lostCodes.length === 0 && codeChanged.length === 0,
    `no acknowledged partner code lost or changed (${acknowledgedCodes.size} codes checked, ${lostCodes.length} missing, ${codeChanged.length} changed)`,
  );
  const { rows: events } = await db.query(
    'select count(*)::int as n from loyalty_events where source_id = any($1)',
    [acknowledgedEvents],
  );
  check(
    events[0].n === acknowledgedEvents.length,
    `no acknowledged event lost (${events[0].n} of ${acknowledgedEvents.length} in the ledger)`,
  );

  const distinct = new Set(customers.filter((c) => c.access).map((c) => c.id)).size;
  check(distinct >= Math.min(CUSTOMERS, 1000), `${distinct} different customers signed in and used the API`);
  const byKind = {};
  for (const r of requests) {
    byKind[r.kind] ??= { total: 0, failed: 0 };
    byKind[r.kind].total += 1;
    if (!r.ok) byKind[r.kind].failed += 1;
  }
  log(`requests: ${JSON.stringify(byKind)}`);
  await db.end();
  await keepAlive;
  const replica = await checkBackupAndReplica();
  const scrapes = await checkExporters();
  await checkReplicationWatched(scrapes, replica);
}

/**
 * The recipe's backup and restore (docs/operations.md#backup-and-restore) on the fleet after the
 * faults: deploy/roadpass-backup.sh makes a base backup of the loaded database, and
 * deploy/roadpass-restore.sh makes a replica of it that streams from the primary through a slot. Once
 * it has replayed everything the primary had written, it holds the same customers, ledger, consents,
 * partner codes and profiles. It keeps streaming while the exporters are checked.
 */
async function checkBackupAndReplica() {
  const started = Date.now();
  const backup = fleet.backup();
  log(`backup: ${backup} in ${Date.now() - started} ms`);
  const replica = await fleet.startReplica(backup);
  const primary = new pg.Client({ connectionString: fleet.directUrl });
  const standby = new pg.Client({
    connectionString: fleet.directUrl.replace(`:${fleet.pgPort}/`, `:${replica.port}/`),
  });
  await primary.connect();
  await standby.connect();
  try {
    const { rows } = await primary.query('select pg_current_wal_lsn()::text as lsn');
    const replayed = async () =>
      (await standby.query('select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok', [rows[0].lsn])).rows[0].ok;
    await fleet.waitUntil(replayed, 60_000, "the replica replays the primary's WAL", 200);
    const contents = `select (select count(*) from customers)::int as customers,
        (select count(*) from loyalty_events)::int as ledger,
        (select count(*) from customer_consents)::int as consents,
        (select count(*) from loyalty_partner_codes)::int as codes,
        (select md5(string_agg(id::text || ':' || coalesce(address_city, ''), ',' order by id)) from customers) as profiles`;
    const [onPrimary, onReplica] = await Promise.all([primary.query(contents), standby.query(contents)]);
    const [a, b] = [onPrimary.rows[0], onReplica.rows[0]];
    check(
      JSON.stringify(a) === JSON.stringify(b) && a.customers >= CUSTOMERS,
      `the backup restored as a replica holds what the primary holds: ${a.customers} customers, ${a.ledger} ledger entries, ${a.consents} consents, ${a.codes} partner codes${
        JSON.stringify(a) === JSON.stringify(b) ? '' : `; the replica has ${JSON.stringify(b)}`
      }`,
    );
    const inRecovery = (await standby.query('select pg_is_in_recovery() as yes')).rows[0].yes;
    check(inRecovery, 'the restored copy runs as a standby (it refuses writes)');
  } finally {
    await primary.end();
    await standby.end();
  }
  return replica;
}

/**
 * What the operator watches of the backup and the replica (fleet-alerts.yml): the backup's time,
 * through the node exporter, is now; the replica's slot is active and its lag exported while it
 * streams; once it stops, PostgreSQL's exporter shows the slot inactive (RoadpassReplicationSlotInactive).
 */
async function checkReplicationWatched(scrapes, replica) {
  const backupAge =
    Date.now() / 1000 - sampleValue(scrapes.node, 'roadpass_backup_last_success_timestamp_seconds');
  const active = sampleValue(scrapes.postgres, 'pg_replication_slots_active', { slot_name: replica.slot });
  const lag = sampleValue(scrapes.postgres, 'pg_stat_replication_pg_wal_lsn_diff', {
    application_name: replica.slot,
  });
  check(
    backupAge >= 0 && backupAge < 300 && active === 1 && lag !== undefined,
    `exporters: the backup finished ${Math.round(backupAge)} s ago; slot ${replica.slot} active ${active}, replica ${lag} bytes behind`,
  );
  replica.stop();
  const after = await fleet
    .waitUntil(
      async () =>
        sampleValue(await scrapeExporter('postgres'), 'pg_replication_slots_active', {
          slot_name: replica.slot,
        }) === 0,
      30_000,
      'the exporter shows the stopped replica',
      500,
    )
    .then(
      () => true,
      () => false,
    );
  check(after, `the replica stopped: PostgreSQL's exporter shows slot ${replica.slot} inactive`);
  const admin = new pg.Client({
    host: '127.0.0.1',
    port: fleet.pgPort,
    user: 'postgres',
    database: 'postgres',
  });
  await admin.connect();
  await admin.query('select pg_drop_replication_slot($1)', [replica.slot]);
  await admin.end();
}

/** One exporter of the fleet (fleet.exporters: haproxy, pgbouncer, postgres, node), parsed. */
async function scrapeExporter(name) {
  const text = await (await fetch(fleet.exporters[name], { signal: AbortSignal.timeout(10_000) })).text();
  return Object.assign(parseExposition(text), { text });
}

/**
 * The exporters of deploy/prometheus/prometheus.yml on the fleet after the load: every metric that
 * fleet-alerts.yml and the dashboard name is exported, with its labels, by the real exporter; their
 * values say what the fleet is (3 instances in service, the pool's queries counted, PostgreSQL up);
 * promtool finds nothing wrong with PgBouncer's (deploy/pgbouncer-exporter.mjs, ours).
 */
async function checkExporters() {
  const named = namedMetrics();
  const scrapes = {};
  for (const name of Object.keys(fleet.exporters)) {
    scrapes[name] = await scrapeExporter(name);
    const mine = new Map([...named].filter(([, entry]) => entry.exporter === name));
    check(mine.size > 0, `the rules and the dashboard name ${mine.size} metrics of ${name}'s exporter`);
    checkExported(mine, scrapes[name], check, `${name}'s exporter`);
  }
  const inService = sampleValue(scrapes.haproxy, 'haproxy_backend_active_servers', { proxy: 'roadpass' });
  const pooled = sampleValue(scrapes.pgbouncer, 'pgbouncer_stats_queries_pooled_total', {
    database: 'roadpass',
  });
  const pgUp = sampleValue(scrapes.postgres, 'pg_up');
  check(
    inService === fleet.instances.length && pooled > 1000 && pgUp === 1,
    `exporters: HAProxy has ${inService} instances in service, PgBouncer pooled ${pooled} queries, pg_up ${pgUp}`,
  );
  const lint = promtool(['check', 'metrics'], scrapes.pgbouncer.text).output;
  check(
    lint.trim() === '',
    `promtool check metrics: nothing wrong with PgBouncer's exporter${lint.trim() ? `:\n${lint}` : ''}`,
  );
  return scrapes;
}

/**
 * Health and metrics are the operator's (deploy/README.md#the-operators-endpoints): HAProxy and the
 * instances' main ports answer 404; each instance's management port answers them.
 */
async function checkOperatorEndpoints() {
  const status = async (url) => {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    return { status: res.status, text: await res.text(), requestId: res.headers.get('x-request-id') };
  };
  // HAProxy refuses them itself (an instance would have set x-request-id), percent-encoded too: the
  // instance's router decodes /%6detrics to /metrics.
  for (const path of ['/metrics', '/health/ready', '/health/live', '/%6detrics', '/health/%72eady']) {
    const res = await status(new URL(path, fleet.url));
    check(
      res.status === 404 && res.requestId === null,
      `${path} through HAProxy: ${res.status} (404), ${res.requestId ? 'answered by an instance' : 'refused by HAProxy'}`,
    );
  }
  // Over HTTP/2, as browsers and apps that offer it get the fleet: the same refusal, the same page,
  // and no connection header (HTTP/2 forbids them; Safari refuses a response that has one).
  for (const [path, expected] of [
    ['/', 200],
    ['/%6detrics', 404],
  ]) {
    const res = await http2Get(path);
    check(
      res.status === expected &&
        (expected === 200) === (res.headers['x-request-id'] !== undefined) &&
        res.headers['keep-alive'] === undefined,
      `${path} over HTTP/2: ${res.status} (${expected}), ${res.headers['x-request-id'] ? 'from an instance' : 'from HAProxy'}, Keep-Alive header ${res.headers['keep-alive'] ?? 'absent'}`,
    );
  }
  const page = await status(new URL('/', fleet.url));
  check(
    page.status === 200 && page.requestId !== null,
    `the start page through HAProxy: ${page.status}, from an instance`,
  );
  for (const instance of fleet.instances) {
    const main = await status(`http://127.0.0.1:${instance.port}/metrics`);
    const ready = await status(`http://127.0.0.1:${instance.managementPort}/health/ready`);
    const metrics = await status(`http://127.0.0.1:${instance.managementPort}/metrics`);
    check(
      main.status === 404 &&
        ready.status === 200 &&
        metrics.status === 200 &&
        metrics.text.includes('roadpass_http_request_duration_seconds'),
      `${instance.name}: /metrics on the main port ${main.status} (404); on the management port /health/ready ${ready.status}, /metrics ${metrics.status} with the request metrics`,
    );
  }
}

/**
 * HAProxy's request log (deploy/haproxy.cfg.template): each request has HAProxy's id, which the
 * instance answers in X-Request-Id (a client's own is replaced), and the line holds neither the query
 * string nor the token of an e-mail link (every token path of the contracts).
 */
async function checkAccessLog() {
  const secret = `Secret${letters()}`;
  const tokenPaths = [
    apiPaths.unsubscribeLookup(secret),
    apiPaths.unsubscribe(secret),
    appPaths.newsletterUnsubscribe(secret),
    appPaths.emailConfirm(secret),
  ];
  const ids = [];
  for (const path of tokenPaths) {
    const res = await fetch(new URL(`${path}?code=Code${secret}&login_hint=hint%40example.com`, fleet.url), {
      headers: { 'x-request-id': 'chosen-by-the-client' },
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer();
    ids.push(res.headers.get('x-request-id'));
  }
  check(
    ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id ?? '')),
    `requests through HAProxy carry HAProxy's id, not the client's (${ids[0]})`,
  );
  await fleet.waitUntil(
    () => ids.every((id) => fleet.haproxy.tail().includes(id)),
    5_000,
    'the log lines',
    50,
  );
  const lines = fleet.haproxy
    .tail()
    .split('\n')
    .filter((line) => ids.some((id) => line.includes(id)));
  check(
    lines.length === tokenPaths.length &&
      lines.every(
        (line) => line.includes('{token}') && !line.includes(secret) && !/code=|login_hint|hint/.test(line),
      ),
    `HAProxy's log: one line per request with its id, tokens and query strings left out (${lines[0]?.trim()})`,
  );
}

/**
 * Clients that follow the Keep-Alive header (Node's fetch) keep an idle connection as long as it
 * says: it must be shorter than HAProxy keeps it open, by a margin, or a request sent as HAProxy
 * closes the connection fails. Measured on a raw TLS connection: one request, then idle until
 * HAProxy closes it.
 */
function checkKeepAlive() {
  return new Promise((resolve) => {
    const socket = tls.connect({
      host: '127.0.0.1',
      port: fleet.publicPort,
      servername: 'localhost',
      ca: fleet.ca,
    });
    let head = '';
    let answeredAt;
    socket.once('secureConnect', () => socket.write('GET /config.json HTTP/1.1\r\nHost: localhost\r\n\r\n'));
    socket.on('data', (chunk) => {
      head += chunk;
      if (!answeredAt && head.includes('\r\n\r\n')) answeredAt = Date.now();
    });
    socket.on('error', (error) => check(false, `keep-alive: ${error.message}`));
    // A balancer that never closes an idle connection fails here rather than holding the test.
    const tooLong = setTimeout(() => {
      check(false, 'keep-alive: HAProxy kept an idle connection open for over 60 s');
      socket.removeAllListeners('close');
      socket.destroy();
      resolve();
    }, 60_000);
    socket.once('close', () => {
      clearTimeout(tooLong);
      const advertised = Number(/^keep-alive: *timeout=(\d+)/im.exec(head)?.[1]);
      const idleMs = Date.now() - answeredAt;
      check(
        advertised > 0 && idleMs >= (advertised + 1) * 1000,
        `keep-alive: HAProxy says timeout=${advertised} s and closed the idle connection after ${idleMs} ms (later than ${advertised + 1} s)`,
      );
      resolve();
    });
  });
}

/** One GET through HAProxy over HTTP/2 (ALPN h2): its status and headers. */
function http2Get(path) {
  return new Promise((resolve, reject) => {
    const session = http2.connect(fleet.url, { ca: fleet.ca });
    session.once('error', reject);
    const stream = session.request({ ':path': path });
    stream.once('response', (headers) => {
      stream.resume();
      stream.once('end', () => {
        session.close();
        resolve({ status: headers[':status'], headers });
      });
    });
    stream.once('error', reject);
    stream.end();
  });
}

/** Eight random letters (names and cities allow no digits). */
function letters() {
  return [...randomBytes(8)].map((b) => String.fromCharCode(97 + (b % 26))).join('');
}

function summary(failed, withDetails = true) {
  const counts = {};
  const details = [];
  for (const r of failed) {
    const key = `${r.kind} ${r.status || r.error}`;
    if (!counts[key]) details.push(`${key} (${r.start}–${r.end}): ${r.detail ?? r.error ?? ''}`);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return Object.entries(counts)
    .map(([k, n]) => `${n}× ${k}`)
    .join(', ')
    .concat(withDetails && details.length ? `\n    first of each: ${details.join('\n    ')}` : '');
}

async function listeners(fleet) {
  const client = new pg.Client({ connectionString: fleet.directUrl });
  try {
    await client.connect();
    const { rows } = await client.query(
      `select count(*)::int as n from pg_stat_activity where application_name = 'roadpass-change-listener'`,
    );
    return rows[0].n;
  } catch {
    return 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The customers, by SQL: one password hash computed once by the server's own code (with the cost of
 * NODE_ENV=test, N=2^12, as the test suites use: a hash records its own cost, so the server verifies
 * it as any other) and reused; each a loyalty member (core consent) in Germany.
 */
