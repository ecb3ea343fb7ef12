import { sql } from 'kysely';
import { changeNotices } from '../../db/change-notices.js';
import type { Db } from '../../db/database.js';
import type { CustomerRow, CustomerUpdate, NewCustomerRow } from '../../db/schema.js';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../../lib/password-hash.js';
import { isCustomerId } from '../../lib/customer-id.js';

export type Customer = Omit<CustomerRow, 'password_hash'>;

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

export function createCustomerRepository(db: Db): CustomerRepository {
  /** After a write commits: this process's caches drop the customer at once (decision 0011). */
  const changed = (id: string) => changeNotices(db).publish('customer', id);
  const byEmail = (email: string) =>
    db
      .selectFrom('customers')
      .selectAll()
      .where(sql<string>`lower(email)`, '=', email.trim().toLowerCase())
      .executeTakeFirst();

  return {
    async findById(id) {
      if (!isCustomerId(id)) return undefined;
      const row = await db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();
      return row && withoutHash(row);
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
