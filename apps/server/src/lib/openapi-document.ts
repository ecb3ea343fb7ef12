/** The marker a route's schema carries when its request body may be left out entirely. */
export const OPTIONAL_BODY = 'x-optional-body';

interface OperationObject {
  requestBody?: { required?: boolean };
  [key: string]: unknown;
}

/**
 * fastify-swagger documents every body schema as a required request body. Routes that accept no body
 * (the partner-code POST of docs/product/api.md#calls is "POST (empty body)") carry OPTIONAL_BODY; here their request
 * body becomes optional and the marker leaves the document.
 */
export function markOptionalBodies<T>(document: T): T {
  const paths = (document as { paths?: Record<string, Record<string, OperationObject>> }).paths ?? {};
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      if (!operation || typeof operation !== 'object' || !(OPTIONAL_BODY in operation)) continue;
      if (operation[OPTIONAL_BODY] === true && operation.requestBody) operation.requestBody.required = false;
      delete operation[OPTIONAL_BODY];
    }
  }
  return document;
}
