#!/usr/bin/env node
// Benchmark: requests per second and latency of the login status, tier details, a history page and the
// personal data (GET, and a PUT of the whole profile checked with the served rules) at 50 connections, next to a bare Fastify hello-world measured in the same run on the same machine.
// Server and baseline each run in their own process; autocannon (this process) loads both the same way.
// Usage: npm run bench:api                      (embedded PGlite, fresh data dir)
//        DATABASE_URL=postgres://… npm run bench:api   (a PostgreSQL server)
// Needs a build (npm run build). Prints a Markdown table for docs/performance.md.
import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { httpSignIn } from './http-sign-in.mjs';
import { spawnBaseline, spawnServer } from './spawn-server.mjs';
import { waitFor } from './wait-for-url.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;
const port = 18000 + Math.floor(Math.random() * 1000);
const baseUrl = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-bench-'));

const measure = (title, url, headers = {}, seconds = duration, request = {}) =>
  new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers, ...request }, (err, result) => {
      if (err) return reject(err);
      if (result.non2xx > 0) return reject(new Error(`${title}: ${result.non2xx} non-2xx answers`));
      resolve({
        title,
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        total: result.requests.total,
      });
    });
  });

const app = spawnServer(port, { DATA_DIR: dataDir, ACCESS_TOKEN_TTL_SECONDS: '3600' });

const baseline = spawnBaseline(port + 1);

try {
  await waitFor(`${baseUrl}/config.json`);
  await waitFor(`http://127.0.0.1:${port + 1}/hello`);
  const { access_token: token } = await httpSignIn(baseUrl, 'demo.de@example.com', 'Demo-2026!');
  const auth = { authorization: `Bearer ${token}` };
  const status = await fetch(`${baseUrl}/api/customer/cuda/customer/v2/login/own/status`, { headers: auth });
  const { user } = await status.json();
  const storage = process.env.DATABASE_URL ? 'PostgreSQL server' : 'embedded PGlite';
  const loyalty = `${baseUrl}/api/customer/loyalty-service/customer/${user.uuid}`;

  const baselineUrl = `http://127.0.0.1:${port + 1}/hello`;
  // Both processes warm up (JIT, connection pools) before anything counts.
  await measure('warm-up', baselineUrl, {}, 2);
  await measure('warm-up', `${baseUrl}/api/customer/cuda/customer/v2/login/own/status`, auth, 2);

  const results = [];
  results.push(await measure('hello-world (bare Fastify, own process)', baselineUrl));
  results.push(
    await measure(
      `login status (${storage})`,
      `${baseUrl}/api/customer/cuda/customer/v2/login/own/status`,
      auth,
    ),
  );
  // DPoP (decision 0044): the same call with a DPoP-bound token and a new proof signed for every
  // request, as a real client makes it (ES256, node:crypto in this process, signed as each request
  // goes out).
  const statusUrl = `${baseUrl}/api/customer/cuda/customer/v2/login/own/status`;
  const dpopKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const dpopJwk = dpopKey.publicKey.export({ format: 'jwk' });
  const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const dpopHeader = b64({
    typ: 'dpop+jwt',
    alg: 'ES256',
    jwk: { kty: 'EC', crv: 'P-256', x: dpopJwk.x, y: dpopJwk.y },
  });
  const dpopProof = (htm, htu, accessToken) => {
    const payload = b64({
      jti: randomUUID(),
      htm,
      htu,
      iat: Math.floor(Date.now() / 1000),
      ...(accessToken ? { ath: createHash('sha256').update(accessToken).digest('base64url') } : {}),
    });
    const signature = sign('sha256', Buffer.from(`${dpopHeader}.${payload}`), {
      key: dpopKey.privateKey,
      dsaEncoding: 'ieee-p1363',
    }).toString('base64url');
    return `${dpopHeader}.${payload}.${signature}`;
  };
  const { access_token: boundToken, token_type: boundType } = await httpSignIn(
    baseUrl,
    'demo.de@example.com',
    'Demo-2026!',
    'portal-client',
    (tokenUrl) => ({ dpop: dpopProof('POST', tokenUrl) }),
  );
  if (boundType !== 'DPoP') throw new Error(`expected a DPoP-bound token, got ${boundType}`);
  // The same, with the proofs signed before the run (each still new to the server, within its 300 s
  // iat window): the server's own cost, without the load generator's signing on the same cores. A
  // real client signs on its own device. Proofs left unused are thrown away; if they run out, the
  // rest are signed during the run and counted.
  const presignedCount = Number(process.env.BENCH_DPOP_PRESIGNED ?? duration * 20_000);
  const presigned = Array.from({ length: presignedCount }, () => dpopProof('GET', statusUrl, boundToken));
  let signedLate = 0;
  const nextProof = () => presigned.pop() ?? (signedLate++, dpopProof('GET', statusUrl, boundToken));
  results.push(
    await measure(`login status, DPoP, proofs signed ahead (${storage})`, statusUrl, {}, duration, {
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, authorization: `DPoP ${boundToken}`, dpop: nextProof() },
          }),
        },
      ],
    }),
  );
  if (signedLate > 0) console.log(`(proofs signed ahead ran out: ${signedLate} signed during the run)`);
  results.push(
    await measure(`login status, DPoP, a new proof per request (${storage})`, statusUrl, {}, duration, {
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            headers: {
              ...request.headers,
              authorization: `DPoP ${boundToken}`,
              dpop: dpopProof('GET', statusUrl, boundToken),
            },
          }),
        },
      ],
    }),
  );
  results.push(await measure(`tier details (${storage})`, loyalty, auth));
  results.push(
    await measure(
      `history page 0 of 100 entries (${storage})`,
      `${loyalty}/history?page_size=100&page_index=0`,
      auth,
    ),
  );

  // Personal data: GET, then PUT of the same profile (every field checked with the served rules, the
  // row written). The PUT needs the anti-forgery token a GET answers with.
  const personalUrl = `${baseUrl}/api/customer/cuda/customer/personaldata/own`;
  results.push(await measure(`personal data GET (${storage})`, personalUrl, auth));
  const own = await fetch(personalUrl, { headers: auth });
  const profile = (await own.json()).body.PersonalDataRTO;
  results.push(
    await measure(
      `personal data PUT (${storage})`,
      personalUrl,
      { ...auth, 'content-type': 'application/json', 'x-csrf-token': own.headers.get('x-csrf-token') },
      duration,
      { method: 'PUT', body: JSON.stringify(profile) },
    ),
  );

  console.log(`\n${connections} connections, ${duration} s each, Node ${process.version}\n`);
  console.log('| route | requests/s | % of hello-world | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of results) {
    const share = ((r.rps / results[0].rps) * 100).toFixed(1);
    console.log(`| ${r.title} | ${Math.round(r.rps)} | ${share} % | ${r.p50} | ${r.p99} |`);
  }
  const bearer = results.find((r) => r.title.startsWith('login status ('));
  for (const dpop of results.filter((r) => r.title.startsWith('login status, DPoP')))
    console.log(
      `\n${dpop.title}: ${((dpop.rps / bearer.rps) * 100).toFixed(1)} % of the bearer rate (goal: at least 85 %)`,
    );
} finally {
  app.kill();
  baseline.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
