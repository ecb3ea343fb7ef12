import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('legal_entities')
    .addColumn('legal_entity_id', 'integer', (c) => c.primaryKey())
    .addColumn('iso_country', 'char(2)', (c) => c.notNull().unique())
    .addColumn('languages', sql`text[]`, (c) => c.notNull())
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('is_registration_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('is_address_editing_disabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable('customers')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('legal_entity_id', 'integer', (c) => c.notNull().references('legal_entities.legal_entity_id'))
    .addColumn('language', 'varchar(5)', (c) => c.notNull().defaultTo('en_EN'))
    .addColumn('salutation', 'varchar(4)', (c) => c.notNull().defaultTo('FRAU'))
    .addColumn('first_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('middle_name', 'varchar(255)')
    .addColumn('last_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('birth_date', 'date')
    .addColumn('birth_place', 'varchar(255)')
    .addColumn('fiscal_code', 'varchar(32)')
    .addColumn('passport_id', 'varchar(64)')
    .addColumn('phone', 'varchar(32)')
    .addColumn('mobile_phone', 'varchar(32)')
    .addColumn('address_street', 'varchar(255)')
    .addColumn('address_additional_street', 'varchar(255)')
    .addColumn('address_city', 'varchar(255)')
    .addColumn('address_zip_code', 'varchar(16)')
    .addColumn('address_province_iso_code', 'varchar(8)')
    .addColumn('address_country_iso_code', 'char(2)')
    .addColumn('student', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('full_time_student', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('customers_salutation', sql`salutation in ('HERR', 'FRAU')`)
    .execute();
  // E-mail addresses are unique regardless of case.
  await sql`create unique index customers_email_lower on customers (lower(email))`.execute(db);

  await db.schema
    .createTable('app_secrets')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('app_secrets').execute();
  await db.schema.dropTable('customers').execute();
  await db.schema.dropTable('legal_entities').execute();
}
