import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { routePattern, withTextParams } from './route-pattern.js';

describe('routePattern', () => {
  it('turns an apiPaths builder into a Fastify pattern with named parameters', () => {
    expect(routePattern(apiPaths.customerConsent, 'uuid', 'slug')).toBe(
      '/api/customer/consents/v1/customers/:uuid/consents/:slug',
    );
    expect(routePattern(withTextParams(apiPaths.processConsents), 'legalEntityId', 'process')).toBe(
      '/api/customer/consents/v1/legal-entities/:legalEntityId/processes/:process/consents',
    );
  });
});

/** Defined by docs/product/api.md#calls but not served (none now: logout ends the session on the server too). */
const notServed = new Set<string>([]);

/** A path or pattern with its parameters blanked: '/a/:uuid/b' and '/a/{uuid}/b' both give '/a/{}/b'. */
const shapeOf = (path: string) => path.replace(/:[^/]+|\{[^}]+\}/g, '{}');

/**
 * Every apiPaths entry as a shape: builders called with one marker per parameter, and with fewer
 * where trailing parameters are optional (personalDataMeta with and without a province).
 */
const contractShapes = Object.values(apiPaths).flatMap((entry) => {
  if (typeof entry === 'string') return [entry];
  const builder = entry as (...args: string[]) => string;
  return Array.from({ length: entry.length }, (_, count) => count + 1)
    .map((count) => routePattern(builder, ...Array.from({ length: count }, (_, i) => `p${i}`)))
    .filter((pattern) => !pattern.includes('undefined'))
    .map(shapeOf);
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

// Habit 5: a route path is written once, in packages/contracts/src/api-paths.ts.
describe('API paths written once', () => {
  it('serves every API operation of the OpenAPI document at a path built from the contracts', () => {
    const documented = Object.keys((t.app.swagger() as { paths: Record<string, unknown> }).paths)
      .filter((path) => path.startsWith('/api/'))
      .map(shapeOf);
    expect(documented.length).toBeGreaterThan(10);
    expect(documented.filter((shape) => !contractShapes.includes(shape))).toEqual([]);
  });

  it('serves every path of the contracts', () => {
    const documented = new Set(
      Object.keys((t.app.swagger() as { paths: Record<string, unknown> }).paths).map(shapeOf),
    );
    // The document itself and its reference page (an HTML page, issue 21 §7) are not operations in it.
    documented.add(apiPaths.openApiDocument);
    documented.add(apiPaths.apiReference);
    const missing = contractShapes.filter((shape) => !documented.has(shape) && !notServed.has(shape));
    expect(missing).toEqual([]);
    expect(t.app.hasRoute({ method: 'GET', url: apiPaths.openApiDocument })).toBe(true);
    expect(t.app.hasRoute({ method: 'GET', url: apiPaths.apiReference })).toBe(true);
  });
});
