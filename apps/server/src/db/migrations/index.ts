import type { Migration } from 'kysely/migration';
import * as m0001 from './0001-customers.js';
import * as m0002 from './0002-identity-provider.js';

/** Every migration, in order. Listed statically so the compiled server needs no file scanning. */
export const migrations: Record<string, Migration> = {
  '0001-customers': m0001,
  '0002-identity-provider': m0002,
};
