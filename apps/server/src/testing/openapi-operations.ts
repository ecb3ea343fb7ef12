import type { FastifyInstance } from 'fastify';

/** A JSON schema as it appears in the server's OpenAPI document (the parts the checks read). */
export interface JsonSchema {
  type?: string | string[];
  format?: string;
  pattern?: string;
  minLength?: number;
  minProperties?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  examples?: unknown[];
  example?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
}

export interface DocumentedParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

/** One operation of the OpenAPI document, flattened for the checks that walk every route. */
export interface DocumentedOperation {
  method: string;
  /** The documented path with {param} placeholders. */
  path: string;
  security: unknown[] | undefined;
  parameters: DocumentedParameter[];
  body: JsonSchema | undefined;
  bodyRequired: boolean;
  /** Response schema per documented status code ("200", "400", …). */
  responses: Record<string, JsonSchema | undefined>;
}

interface OperationObject {
  security?: unknown[];
  parameters?: DocumentedParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

/** Every operation of the app's own OpenAPI document (the one served at /api/openapi.json). */
export function documentedOperations(app: FastifyInstance): DocumentedOperation[] {
  const doc = app.swagger() as { paths: Record<string, Record<string, OperationObject>> };
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      security: op.security,
      parameters: op.parameters ?? [],
      body: op.requestBody?.content?.['application/json']?.schema,
      bodyRequired: op.requestBody?.required === true,
      responses: Object.fromEntries(
        Object.entries(op.responses ?? {}).map(([status, response]) => [
          status,
          response.content?.['application/json']?.schema,
        ]),
      ),
    })),
  );
}

export const isMutation = (op: DocumentedOperation) => op.method !== 'GET' && op.method !== 'HEAD';

/** Who may call an operation: a signed-in customer, the rental system's service client, or anyone. */
export function callerOf(op: DocumentedOperation): 'customer' | 'service' | 'public' {
  if (!op.security?.length) return 'public';
  return op.path.startsWith('/api/internal/') ? 'service' : 'customer';
}

/**
 * A value that satisfies a schema (required fields only), or undefined when none can be made up.
 * `known` gives values for fields a schema cannot describe (a pattern, or the caller's own data).
 */
export function sampleOf(schema: JsonSchema | undefined, known: Record<string, unknown> = {}): unknown {
  if (!schema) return undefined;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return sampleOf(alternatives[0], known);
  if (schema.allOf?.length) {
    return Object.assign({}, ...schema.allOf.map((part) => sampleOf(part, known) as object));
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || schema.properties) {
    return Object.fromEntries(
      (schema.required ?? []).map((key) => [
        key,
        key in known ? known[key] : sampleOf(schema.properties?.[key], known),
      ]),
    );
  }
  if (type === 'boolean') return true;
  if (type === 'integer' || type === 'number') return Math.max(schema.minimum ?? 1, 1);
  if (type === 'array') return [];
  if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  if (schema.format === 'date-time') return new Date(0).toISOString();
  if (schema.format === 'date') return '2000-01-01';
  return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
}
