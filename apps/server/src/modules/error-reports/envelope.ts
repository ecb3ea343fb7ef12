/** What the tunnel needs to know of a Sentry envelope (https://develop.sentry.dev/sdk/envelopes/). */
export interface EnvelopeSummary {
  header: Record<string, unknown>;
  eventId: string | null;
  itemTypes: string[];
}

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
 */
export function readEnvelope(body: Buffer): EnvelopeSummary | string {
  const NL = 0x0a;
  let end = body.indexOf(NL);
  if (end < 0) end = body.length;
  const header = jsonObject(body.subarray(0, end));
  if (!header) return 'The first line must be the envelope header, a JSON object';
  const itemTypes: string[] = [];
  let at = end + 1;
  while (at < body.length) {
    let headerEnd = body.indexOf(NL, at);
    if (headerEnd < 0) headerEnd = body.length;
    if (headerEnd === at) {
      at += 1; // a trailing newline
      continue;
    }
    const item = jsonObject(body.subarray(at, headerEnd));
    if (!item || typeof item.type !== 'string')
      return `Item ${itemTypes.length + 1} has no JSON header with a type`;
    itemTypes.push(item.type.slice(0, 40));
    const payloadStart = headerEnd + 1;
    if (typeof item.length === 'number') {
      if (!Number.isInteger(item.length) || item.length < 0 || payloadStart + item.length > body.length)
        return `Item ${itemTypes.length} is shorter than its length`;
      at = payloadStart + item.length + 1;
    } else {
      const payloadEnd = body.indexOf(NL, payloadStart);
      at = payloadEnd < 0 ? body.length : payloadEnd + 1;
    }
  }
  if (itemTypes.length === 0) return 'The envelope has no items';
  const eventId =
    typeof header.event_id === 'string' && /^[0-9a-f-]{32,36}$/i.test(header.event_id)
      ? header.event_id
      : null;
  return { header, eventId, itemTypes };
}

/** The same envelope with another header (the upstream DSN when forwarding); the items as they were. */
export function withHeader(body: Buffer, header: Record<string, unknown>): Buffer {
  const end = body.indexOf(0x0a);
  return Buffer.concat([Buffer.from(JSON.stringify(header)), end < 0 ? Buffer.alloc(0) : body.subarray(end)]);
}
