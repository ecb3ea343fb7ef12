import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ErrorReportTable } from '../../db/schema.js';

export interface StoredErrorReport {
  id: string;
  receivedAt: Date;
  eventId: string | null;
  itemTypes: string;
  envelope: string;
  sizeBytes: number;
  forwardStatus: string | null;
}

export async function storeErrorReport(
  db: Db,
  report: { eventId: string | null; itemTypes: string[]; envelope: string; sizeBytes: number },
): Promise<string> {
  const row = await db
    .insertInto('error_reports')
    .values({
      event_id: report.eventId,
      item_types: report.itemTypes.join(',').slice(0, 200),
      envelope: report.envelope,
      size_bytes: report.sizeBytes,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return String(row.id);
}

export async function setForwardStatus(db: Db, id: string, status: string): Promise<void> {
  await db
    .updateTable('error_reports')
    .set({ forward_status: status.slice(0, 100) })
    .where('id', '=', id)
    .execute();
}

type ErrorReportRow = Selectable<ErrorReportTable>;

const toStored = (r: ErrorReportRow): StoredErrorReport => ({
  id: String(r.id),
  receivedAt: r.received_at,
  eventId: r.event_id,
  itemTypes: r.item_types,
  envelope: r.envelope,
  sizeBytes: r.size_bytes,
  forwardStatus: r.forward_status,
});

/** The newest reports first. */
export async function latestErrorReports(db: Db, limit: number): Promise<StoredErrorReport[]> {
  const rows = await db.selectFrom('error_reports').selectAll().orderBy('id', 'desc').limit(limit).execute();
  return rows.map(toStored);
}

/** One report by its id, or undefined. */
export async function errorReportById(db: Db, id: string): Promise<StoredErrorReport | undefined> {
  const row = await db.selectFrom('error_reports').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toStored(row);
}
