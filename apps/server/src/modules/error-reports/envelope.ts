import { isUtf8 } from 'node:buffer';

/** One item of an envelope: its JSON header and its payload bytes. */
export interface EnvelopeItem {
  header: Record<string, unknown>;
  /** The header line as it came (kept as sent when the item is stored unchanged). */
  headerLine: Buffer;
  type: string;
  payload: Buffer;
}

/** What the tunnel needs to know of a Sentry envelope (https://develop.sentry.dev/sdk/envelopes/). */
export interface EnvelopeSummary {
  header: Record<string, unknown>;
  eventId: string | null;
  itemTypes: string[];
  items: EnvelopeItem[];
}

/** The item header key that marks a payload stored as base64 (see storableEnvelope). */
export const STORED_AS_BASE64 = 'roadpass_stored_as';

function jsonObject(line: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads an envelope: a JSON header line, then items (a JSON item header line and its payload, `length`
 * bytes when the header says so, otherwise up to the next newline). A problem text when it is not one.
 * Binary payloads (an attachment's image) are read by their length, so they may hold any byte.
 */
export function readEnvelope(body: Buffer): EnvelopeSummary | string {
  const NL = 0x0a;
  let end = body.indexOf(NL);
  if (end < 0) end = body.length;
  const header = jsonObject(body.subarray(0, end));
  if (!header) return 'The first line must be the envelope header, a JSON object';
  const items: EnvelopeItem[] = [];
  let at = end + 1;
  while (at < body.length) {
    let headerEnd = body.indexOf(NL, at);
    if (headerEnd < 0) headerEnd = body.length;
    if (headerEnd === at) {
      at += 1; // a trailing newline
      continue;
    }
    const headerLine = body.subarray(at, headerEnd);
    const item = jsonObject(headerLine);
    if (!item || typeof item.type !== 'string')
      return `Item ${items.length + 1} has no JSON header with a type`;
    const type = item.type.slice(0, 40);
    const payloadStart = headerEnd + 1;
    let payloadEnd: number;
    if (typeof item.length === 'number') {
      if (!Number.isInteger(item.length) || item.length < 0 || payloadStart + item.length > body.length)
        return `Item ${items.length + 1} is shorter than its length`;
      payloadEnd = payloadStart + item.length;
      at = payloadEnd + 1;
    } else {
      const newline = body.indexOf(NL, payloadStart);
      payloadEnd = newline < 0 ? body.length : newline;
      at = payloadEnd + 1;
    }
    items.push({
      header: item,
      headerLine,
      type,
      payload: body.subarray(Math.min(payloadStart, body.length), payloadEnd),
    });
  }
  if (items.length === 0) return 'The envelope has no items';
  const eventId =
    typeof header.event_id === 'string' && /^[0-9a-f-]{32,36}$/i.test(header.event_id)
      ? header.event_id
      : null;
  return { header, eventId, itemTypes: items.map((item) => item.type), items };
}

/** Text a database text column takes as it is: UTF-8 without NUL (PostgreSQL refuses 0x00). */
const isStorableText = (bytes: Buffer) => !bytes.includes(0) && isUtf8(bytes);

/**
 * The envelope as text for the error_reports table. Unchanged when every payload is text (errors,
 * feedback); a binary payload (a screenshot) becomes base64, its header saying so
 * (`"roadpass_stored_as":"base64"`, `length` of the base64 text), so the stored text is still an
 * envelope and the bytes come back exactly (storedAttachments). What is forwarded is the envelope as
 * received, not this.
 */
export function storableEnvelope(body: Buffer, summary: EnvelopeSummary): string {
  if (summary.items.every((item) => isStorableText(item.payload))) return body.toString('utf8');
  const headerEnd = body.indexOf(0x0a);
  const lines = [body.subarray(0, headerEnd < 0 ? body.length : headerEnd).toString('utf8')];
  for (const item of summary.items) {
    if (isStorableText(item.payload)) {
      lines.push(item.headerLine.toString('utf8'), item.payload.toString('utf8'));
      continue;
    }
    const base64 = item.payload.toString('base64');
    lines.push(
      JSON.stringify({ ...item.header, length: base64.length, [STORED_AS_BASE64]: 'base64' }),
      base64,
    );
  }
  return lines.join('\n');
}

/** An attachment of a stored envelope, with its bytes as received. */
export interface StoredAttachment {
  filename: string;
  contentType: string;
  data: Buffer;
}

/** The attachment items of an envelope stored by storableEnvelope, in envelope order. */
export function storedAttachments(stored: string): StoredAttachment[] {
  const summary = readEnvelope(Buffer.from(stored, 'utf8'));
  if (typeof summary === 'string') return [];
  return summary.items
    .filter((item) => item.type === 'attachment')
    .map(({ header, payload }) => ({
      filename: typeof header.filename === 'string' ? header.filename : 'attachment',
      contentType: typeof header.content_type === 'string' ? header.content_type : 'application/octet-stream',
      data: header[STORED_AS_BASE64] === 'base64' ? Buffer.from(payload.toString('utf8'), 'base64') : payload,
    }));
}

/**
 * A stored envelope for a person to read: base64 payloads (screenshots) replaced by one line that
 * says what they are; everything else as stored.
 */
export function readableEnvelope(stored: string): string {
  const summary = readEnvelope(Buffer.from(stored, 'utf8'));
  if (typeof summary === 'string' || !summary.items.some((item) => item.header[STORED_AS_BASE64]))
    return stored;
  const headerEnd = stored.indexOf('\n');
  const lines = [headerEnd < 0 ? stored : stored.slice(0, headerEnd)];
  for (const item of summary.items) {
    lines.push(item.headerLine.toString('utf8'));
    lines.push(
      item.header[STORED_AS_BASE64] === 'base64'
        ? `[${Buffer.byteLength(item.payload.toString('utf8'), 'base64')} bytes, not shown]`
        : item.payload.toString('utf8'),
    );
  }
  return lines.join('\n');
}

/** The same envelope with another header (the upstream DSN when forwarding); the items as they were. */
export function withHeader(body: Buffer, header: Record<string, unknown>): Buffer {
  const end = body.indexOf(0x0a);
  return Buffer.concat([Buffer.from(JSON.stringify(header)), end < 0 ? Buffer.alloc(0) : body.subarray(end)]);
}
