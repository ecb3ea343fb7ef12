import { sql } from 'kysely';
import { changeNotices } from '../../db/change-notices.js';
import type { Db } from '../../db/database.js';
import { batchArray } from '../../db/batch-array.js';
import { batchPerTurn } from '../../lib/batch-per-turn.js';
import type { CustomerRow, CustomerUpdate, NewCustomerRow } from '../../db/schema.js';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../../lib/password-hash.js';
import { isCustomerId } from '../../lib/customer-id.js';

export type Customer = Omit<CustomerRow, 'password_hash'>;

/**
 * Every column of a customer but the password hash, named rather than `*`: the read by id is every
 * call's, and runs as a prepared statement, which a `*` could not (decision 0051). The compiler checks
 * the list is complete.
 */
const CUSTOMER_COLUMNS = Object.keys({
  id: 1,
  email: 1,
  legal_entity_id: 1,
  language: 1,
  salutation: 1,
  first_name: 1,
  middle_name: 1,
  last_name: 1,
  birth_date: 1,
  birth_place: 1,
  fiscal_code: 1,
  passport_id: 1,
  phone: 1,
  mobile_phone: 1,
  address_street: 1,
  address_additional_street: 1,
  address_city: 1,
  address_zip_code: 1,
  address_province_iso_code: 1,
  address_country_iso_code: 1,
  student: 1,
  full_time_student: 1,
  created_at: 1,
  updated_at: 1,
} satisfies Record<keyof Customer, 1>) as (keyof Customer)[];

export interface NewCustomer extends Omit<NewCustomerRow, 'password_hash' | 'id'> {
  password: string;
}

export interface CustomerRepository {
  findById(id: string): Promise<Customer | undefined>;
  findByEmail(email: string): Promise<Customer | undefined>;
  /** The customer whose e-mail and password match, else undefined; takes as long either way. */
  verifyCredentials(email: string, password: string): Promise<Customer | undefined>;
  create(customer: NewCustomer): Promise<Customer>;
  update(id: string, changes: CustomerUpdate): Promise<Customer>;
  /** Whether `password` is the customer's current password. */
  hasPassword(id: string, password: string): Promise<boolean>;
  /** Stores a new password (hashed); the next sign-in takes it and not the old one. */
  setPassword(id: string, password: string): Promise<void>;
}

function withoutHash(row: CustomerRow): Customer {
  const { password_hash: _hash, ...customer } = row;
  return customer;
}

/**
 * Reads customers by id, the reads of one turn of the event loop together in one statement
 * (`id = any($1)`, decision 0053; planned once, decision 0055): every API call reads its customer. Inside a transaction each read
 * goes alone, on the transaction's connection. Nothing is kept: each read asks the database.
 */
function customersById(db: Db): (id: string) => Promise<Customer | undefined> {
  const customers = () => db.selectFrom('customers').select(CUSTOMER_COLUMNS);
  if (db.isTransaction) return (id) => customers().where('id', '=', id).executeTakeFirst();
  const read = batchPerTurn<string, Customer | undefined>(async (ids) => {
    const rows = await customers()
      .where(sql<boolean>`id = any(${batchArray(ids, 'uuid')})`)
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    // A customer asked for twice in one turn: each caller gets an object of its own.
    return ids.map((id) => {
      const row = byId.get(id);
      return row && { ...row };
    });
  });
  return (id) => read(id.toLowerCase());
}

export function createCustomerRepository(db: Db): CustomerRepository {
  /** After a write commits: this process's caches drop the customer at once (decision 0011). */
  const changed = (id: string) => changeNotices(db).publish('customer', id);
  const byEmail = (email: string) =>
    db
      .selectFrom('customers')
      .selectAll()
      .where(sql<string>`lower(email)`, '=', email.trim().toLowerCase())
      .executeTakeFirst();

  const byId = customersById(db);

  return {
    async findById(id) {
      if (!isCustomerId(id)) return undefined;
      return byId(id);
    },
    async findByEmail(email) {
      const row = await byEmail(email);
      return row && withoutHash(row);
    },
    async verifyCredentials(email, password) {
      const row = email.length <= 254 ? await byEmail(email) : undefined;
      const ok = await verifyPassword(password, row?.password_hash ?? (await decoyPasswordHash()));
      return row && ok ? withoutHash(row) : undefined;
    },
    async create({ password, ...customer }) {
      const row = await db
        .insertInto('customers')
        .values({ ...customer, email: customer.email.trim(), password_hash: await hashPassword(password) })
        .returningAll()
        .executeTakeFirstOrThrow();
      changed(row.id);
      return withoutHash(row);
    },
    async update(id, changes) {
      const row = await db
        .updateTable('customers')
        .set({ ...changes, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
        .finally(() => changed(id));
      return withoutHash(row);
    },
    async hasPassword(id, password) {
      const row = isCustomerId(id)
        ? await db.selectFrom('customers').select('password_hash').where('id', '=', id).executeTakeFirst()
        : undefined;
      const ok = await verifyPassword(password, row?.password_hash ?? (await decoyPasswordHash()));
      return row !== undefined && ok;
    },
    async setPassword(id, password) {
      const passwordHash = await hashPassword(password);
      await db
        .updateTable('customers')
        .set({ password_hash: passwordHash, updated_at: new Date() })
        .where('id', '=', id)
        .execute();
      changed(id);
    },
  };
}
