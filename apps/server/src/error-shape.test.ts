import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorCodes } from '@roadpass/contracts';
import { createTestApp, type TestApp } from './testing/test-app.js';

// Issue 10, finding 3: 1 129 of 5 951 rejected requests came back in Fastify's own shape
// ({error, message, statusCode}) instead of the API's: bad %-encoding, 414, 431, the static files' 403.
let t: TestApp;
let dist: string;
let origin: string;

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'roadpass-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Roadpass</title>');
  await writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  t = await createTestApp({ webDistDir: dist });
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await rm(dist, { recursive: true, force: true });
});

/** Sends raw bytes over a socket (what a client library would refuse to send) and reads the answer. */
function rawRequest(request: string): Promise<string> {
  const { port, hostname } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

const jsonOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;

describe('every rejected request gets the API error shape', () => {
  it.each(['/api/customer/cuda/customer/v2/login/own/status%', '/customer/loyalty-ui/%E0%A4%A', '/%'])(
    'a broken %%-encoding in %s: 400 naming the address and the rule',
    async (url) => {
      const res = await fetch(`${origin}${url}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        status: 400,
        code: apiErrorCodes.validationFailed,
        message: 'The address is not valid: it has a broken %-encoding',
        violations: [{ field: 'url', rule: 'encoding', message: expect.any(String) }],
      });
    },
  );

  it('headers over the limit: 431 with a JSON body', async () => {
    const answer = await rawRequest(
      `GET /config.json HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/content-type: application\/json/i);
    expect(jsonOf(answer)).toMatchObject({
      status: 431,
      code: apiErrorCodes.headersTooLarge,
      violations: [{ field: 'headers', rule: 'maxBytes' }],
    });
  });

  it('an address over the limit: 431 with a JSON body', async () => {
    const answer = await rawRequest(`GET /api/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(jsonOf(answer)).toMatchObject({ status: 431, code: apiErrorCodes.headersTooLarge });
  });

  it('a request that is not HTTP: 400 with a JSON body', async () => {
    const answer = await rawRequest('GET / HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(jsonOf(answer)).toMatchObject({ status: 400, code: apiErrorCodes.badRequest });
  });

  it("the static files' 403 (a folder): the API shape with the forbidden code", async () => {
    const res = await t.app.inject({ url: '/assets/' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 403, code: apiErrorCodes.forbidden, message: expect.any(String) });
  });
});
