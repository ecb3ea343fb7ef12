import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { exportFileSchemas, type ExportArea } from '@roadpass/contracts';
import { sql } from 'kysely';
import yazl from 'yazl';
import type { Db } from '../../db/database.js';
import type { CustomerRow } from '../../db/schema.js';
import { longDate, type MessageTexts } from '../messages/index.js';
import { paymentProfilesOf } from '../payment-profiles/index.js';

/** Rows read per query when a list can be long (ledger, messages, activity): keyset pages. */
const PAGE = 500;

const iso = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();

/**
 * Reads every row of a list page by page (keyset: `after` is the last row's key), so a customer
 * with 10 000 ledger entries never has more than one page in memory.
 */
async function* pages<Row, Key>(
  first: Key,
  read: (after: Key) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
): AsyncGenerator<Row> {
  let after = first;
  for (;;) {
    const rows = await read(after);
    for (const row of rows) yield row;
    if (rows.length < PAGE) return;
    after = keyOf(rows[rows.length - 1]!);
  }
}

/** One area: either one JSON value, or a JSON array streamed item by item. */
type AreaSource =
  { kind: 'value'; load: () => Promise<unknown> } | { kind: 'list'; rows: () => AsyncGenerator<unknown> };

/**
 * What each file of the export holds (docs/product/data-rights.md#download-my-data), read with the
 * customer's id only: nothing of anyone else can enter the ZIP.
 */
function areaSources(db: Db, customer: CustomerRow): Record<ExportArea, AreaSource> {
  const id = customer.id;
  return {
    profile: {
      kind: 'value',
      load: async () => {
        const email = await db
          .selectFrom('email_changes')
          .select(['new_email', 'created_at', 'expires_at'])
          .where('customer_id', '=', id)
          .execute();
        const mobile = await db
          .selectFrom('mobile_changes')
          .select(['mobile_phone', 'sent_at', 'expires_at'])
          .where('customer_id', '=', id)
          .execute();
        return {
          id,
          email: customer.email,
          legalEntityId: customer.legal_entity_id,
          language: customer.language,
          salutation: customer.salutation,
          firstName: customer.first_name,
          middleName: customer.middle_name,
          lastName: customer.last_name,
          birthDate: customer.birth_date,
          birthPlace: customer.birth_place,
          fiscalCode: customer.fiscal_code,
          passportId: customer.passport_id,
          phone: customer.phone,
          mobilePhone: customer.mobile_phone,
          address: {
            street: customer.address_street,
            additionalStreet: customer.address_additional_street,
            city: customer.address_city,
            zipCode: customer.address_zip_code,
            provinceIsoCode: customer.address_province_iso_code,
            countryIsoCode: customer.address_country_iso_code,
          },
          createdAt: iso(customer.created_at),
          updatedAt: iso(customer.updated_at),
          pendingContactChanges: [
            ...email.map((e) => ({
              kind: 'email',
              newEmail: e.new_email,
              requestedAt: iso(e.created_at),
              expiresAt: iso(e.expires_at),
            })),
            ...mobile.map((m) => ({
              kind: 'mobilePhone',
              newMobilePhone: m.mobile_phone,
              requestedAt: iso(m.sent_at),
              expiresAt: iso(m.expires_at),
            })),
          ],
        };
      },
    },
    consents: {
      kind: 'value',
      load: async () =>
        (
          await db
            .selectFrom('customer_consents')
            .select(['slug', 'legal_entity_id', 'granted', 'updated_at'])
            .where('customer_id', '=', id)
            .orderBy('legal_entity_id')
            .orderBy('slug')
            .execute()
        ).map((c) => ({
          slug: c.slug,
          legalEntityId: c.legal_entity_id,
          granted: c.granted,
          updatedAt: iso(c.updated_at),
        })),
    },
    newsletter: {
      kind: 'value',
      load: async () => {
        const agreement = await db
          .selectFrom('newsletter_agreements')
          .select('agreement')
          .where('customer_id', '=', id)
          .executeTakeFirst();
        const log = await db
          .selectFrom('newsletter_events')
          .select(['action', 'channel', 'occurred_at'])
          .where('customer_id', '=', id)
          .orderBy('occurred_at')
          .orderBy('id')
          .execute();
        return {
          subscribed: agreement?.agreement ?? null,
          log: log.map((e) => ({ action: e.action, channel: e.channel, occurredAt: iso(e.occurred_at) })),
        };
      },
    },
    loyalty: {
      kind: 'value',
      load: async () => {
        const account = await db
          .selectFrom('loyalty_accounts')
          .select(['balance', 'tier', 'tier_expiration_date'])
          .where('customer_id', '=', id)
          .executeTakeFirst();
        const codes = await db
          .selectFrom('loyalty_partner_codes')
          .select(['slug', 'code', 'created_at'])
          .where('customer_id', '=', id)
          .orderBy('slug')
          .execute();
        return {
          membership: account
            ? {
                balance: account.balance,
                tier: account.tier,
                tierExpirationDate: iso(account.tier_expiration_date),
              }
            : null,
          partnerCodes: codes.map((c) => ({ slug: c.slug, code: c.code, createdAt: iso(c.created_at) })),
        };
      },
    },
    'loyalty-ledger': {
      kind: 'list',
      rows: () =>
        mapRows(
          pages(
            0,
            (after) =>
              db
                .selectFrom('loyalty_events')
                .select(['seq', 'type', 'points', 'occurred_at', 'expires_at', 'description', 'tier_after'])
                .where('customer_id', '=', id)
                .where('seq', '>', after)
                .orderBy('seq')
                .limit(PAGE)
                .execute(),
            (row) => row.seq,
          ),
          (e) => ({
            seq: e.seq,
            type: e.type,
            points: e.points,
            occurredAt: iso(e.occurred_at),
            expiresAt: iso(e.expires_at),
            description: e.description,
            tierAfter: e.tier_after,
          }),
        ),
    },
    sessions: {
      kind: 'value',
      load: async () =>
        (
          await db
            .selectFrom('oidc_model_instances')
            .select(['id', 'payload', 'expires_at'])
            .where('kind', '=', 'Session')
            .where(sql<string>`payload->>'accountId'`, '=', id)
            .execute()
        ).map((s) => {
          const loginTs = (s.payload as { loginTs?: number }).loginTs;
          return {
            // Only a short, non-secret part of the session id: enough to tell sessions apart.
            id: s.id.slice(0, 8),
            signedInAt: typeof loginTs === 'number' ? new Date(loginTs * 1000).toISOString() : null,
            expiresAt: iso(s.expires_at),
          };
        }),
    },
    'security-activity': {
      kind: 'list',
      rows: () =>
        mapRows(
          pages(
            '0',
            (after) =>
              db
                .selectFrom('security_events')
                .select(['id', 'kind', 'occurred_at', 'details'])
                .where('customer_id', '=', id)
                .where('id', '>', after)
                .orderBy('id')
                .limit(PAGE)
                .execute(),
            (row) => String(row.id),
          ),
          (e) => ({ kind: e.kind, occurredAt: iso(e.occurred_at), details: e.details }),
        ),
    },
    'payment-profiles': { kind: 'value', load: () => paymentProfilesOf(db, id) },
    messages: {
      kind: 'list',
      rows: () =>
        mapRows(
          pages(
            { at: new Date(0), id: '00000000-0000-0000-0000-000000000000' },
            (after) =>
              db
                .selectFrom('outbox')
                .select(['id', 'channel', 'kind', 'recipient', 'subject', 'body', 'created_at'])
                .where('customer_id', '=', id)
                .where((eb) =>
                  eb.or([
                    eb('created_at', '>', after.at),
                    eb.and([eb('created_at', '=', after.at), eb('id', '>', after.id)]),
                  ]),
                )
                .orderBy('created_at')
                .orderBy('id')
                .limit(PAGE)
                .execute(),
            (row) => ({ at: row.created_at, id: row.id }),
          ),
          (m) => ({
            channel: m.channel,
            kind: m.kind,
            recipient: m.recipient,
            subject: m.subject,
            body: m.body,
            sentAt: iso(m.created_at),
          }),
        ),
    },
  };
}

async function* mapRows<Row, Out>(rows: AsyncGenerator<Row>, map: (row: Row) => Out): AsyncGenerator<Out> {
  for await (const row of rows) yield map(row);
}

/** A JSON array written item by item. */
async function* jsonArray(rows: AsyncGenerator<unknown>): AsyncGenerator<string> {
  yield '[';
  let first = true;
  for await (const row of rows) {
    yield (first ? '\n  ' : ',\n  ') + JSON.stringify(row);
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The readable page: every area as a heading and its JSON, in the customer's language. */
async function* indexHtml(
  sources: Record<ExportArea, AreaSource>,
  customer: CustomerRow,
  texts: MessageTexts,
  now: Date,
): AsyncGenerator<string> {
  const lang = customer.language.slice(0, 2).toLowerCase();
  const date = longDate(customer.language, now);
  const title = escapeHtml(texts.render(customer.language, 'export-index.title', {}));
  yield (
    `<!doctype html>\n<html lang="${escapeHtml(lang)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>` +
    '<style>body{font-family:system-ui,sans-serif;margin:1rem auto;max-width:60rem;padding:0 1rem}' +
    'pre{white-space:pre-wrap;word-break:break-word;background:#f4f4f4;padding:.5rem}</style></head><body>' +
    `<h1>${title}</h1><p>${escapeHtml(texts.render(customer.language, 'export-index.intro', { date }))}</p><nav><ul>`
  );
  for (const area of Object.keys(sources)) yield `<li><a href="#${area}">${area}.json</a></li>`;
  yield '</ul></nav>';
  for (const [area, source] of Object.entries(sources) as [ExportArea, AreaSource][]) {
    yield `<section id="${area}"><h2>${area}.json</h2><pre>`;
    if (source.kind === 'value') yield escapeHtml(JSON.stringify(await source.load(), null, 2));
    else for await (const part of jsonArray(source.rows())) yield escapeHtml(part);
    yield '</pre></section>';
  }
  yield '</body></html>\n';
}

/** Text gathered before it goes to yazl's deflate: one write per row would cost a zlib call each. */
const BATCH_CHARS = 64 * 1024;

/**
 * A byte stream of the text parts, created only when yazl reaches the entry. Parts are gathered into
 * batches of about BATCH_CHARS, so 10 000 ledger rows make a few dozen deflate writes, not 10 000.
 */
const bytes = (parts: AsyncGenerator<string>): Readable =>
  Readable.from(
    (async function* () {
      let batch: string[] = [];
      let size = 0;
      for await (const part of parts) {
        batch.push(part);
        size += part.length;
        if (size < BATCH_CHARS) continue;
        yield Buffer.from(batch.join(''));
        batch = [];
        size = 0;
      }
      if (size > 0) yield Buffer.from(batch.join(''));
    })(),
    { objectMode: false },
  );

export interface BuildExportOptions {
  db: Db;
  customer: CustomerRow;
  texts: MessageTexts;
  now: Date;
  /** Called after each file with the share done (0–100). */
  onProgress?: (percent: number) => Promise<void>;
}

/**
 * Writes the customer's export ZIP into `out` (docs/product/data-rights.md#download-my-data): one
 * JSON file per area, the JSON schema of each under `schemas/`, and `index.html`. Streams: rows come
 * from the database page by page, yazl compresses as they come, `out` takes the bytes with back
 * pressure; nothing holds the whole file.
 */
export async function buildExportZip(out: Writable, options: BuildExportOptions): Promise<void> {
  const { db, customer, texts, now, onProgress } = options;
  const sources = areaSources(db, customer);
  const zip = new yazl.ZipFile();
  const areas = Object.entries(sources) as [ExportArea, AreaSource][];
  const steps = areas.length + 1;
  let done = 0;
  const progressed = async () => {
    done += 1;
    await onProgress?.(Math.min(99, Math.floor((done / steps) * 100)));
  };
  const mtime = now;
  // yazl reads the entries one after the other, so each area's queries run only when its turn comes.
  for (const [area, source] of areas) {
    const generator = async function* () {
      if (source.kind === 'value') yield `${JSON.stringify(await source.load(), null, 2)}\n`;
      else yield* jsonArray(source.rows());
      await progressed();
    };
    zip.addReadStreamLazy(`${area}.json`, { mtime }, (cb) => cb(null, bytes(generator())));
  }
  for (const [area, schema] of Object.entries(exportFileSchemas))
    zip.addBuffer(Buffer.from(`${JSON.stringify(schema, null, 2)}\n`), `schemas/${area}.schema.json`, {
      mtime,
    });
  const html = async function* () {
    yield* indexHtml(sources, customer, texts, now);
    await progressed();
  };
  zip.addReadStreamLazy('index.html', { mtime }, (cb) => cb(null, bytes(html())));
  zip.end();
  await pipeline(zip.outputStream, out);
}
