import { sql, type RawBuilder } from 'kysely';

/** The element types the batched statements bind arrays of. */
export type BatchArrayType = 'uuid' | 'int8' | 'integer' | 'boolean' | 'text' | 'timestamptz';

/**
 * A batch's values as one array parameter that PostgreSQL plans for once per connection (decision
 * 0055), for `unnest(…)` and `= any(…)`. Bound plainly (`unnest($1::uuid[])`), the planner sizes
 * every call's custom plan to the array it is given, so the generic plan always looks dearer and the
 * statement is planned again at every call, prepared or not. Inside a scalar subquery the length is
 * unknown when planning: the custom plans cost what the generic one does, and after five calls the
 * connection keeps the generic plan (prepared statements, database.ts). The generic plan counts on
 * about ten elements: right for the reads of one turn of the event loop (batch-per-turn.ts).
 */
export function batchArray(values: readonly unknown[], type: BatchArrayType): RawBuilder<unknown[]> {
  const arrayType = sql.raw(`${type}[]`);
  return sql<unknown[]>`(select ${values}::${arrayType})::${arrayType}`;
}
