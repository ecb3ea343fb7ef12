import { createHash } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { appPaths, type DevOutboxMessage, type DevOutboxResponse } from '@roadpass/contracts';
import type { Db } from '../../db/database.js';

const LINK = /https?:\/\/[^\s<>"]+/g;
const PIN = /\b(\d{6})\b/;
const SHOWN = 200;

const css = `body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1a1a1a}
h1{font-size:1.5rem}ol{list-style:none;padding:0}li{border:1px solid #767676;border-radius:.5rem;margin:0 0 1rem;padding:.75rem 1rem}
.meta{color:#4a4a4a;font-size:.875rem;margin:0}h2{font-size:1.125rem;margin:.25rem 0}
pre{white-space:pre-wrap;overflow-wrap:anywhere;font:inherit;margin:.5rem 0}a{color:#0047b3}
.pin{display:inline-block;min-width:24px;min-height:24px;font:700 1.5rem/1.4 ui-monospace,monospace;letter-spacing:.2em;user-select:all;cursor:copy;background:#eef3ff;padding:0 .5rem;border-radius:.25rem}`;
// The page's own CSP: its one inline style sheet by hash, nothing else (no scripts at all).
const csp = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(css).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function textWithLinks(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    html += escapeHtml(text.slice(last, match.index));
    html += `<a href="${escapeHtml(match[0])}">${escapeHtml(match[0])}</a>`;
    last = match.index + match[0].length;
  }
  return html + escapeHtml(text.slice(last));
}

function page(messages: DevOutboxMessage[]): string {
  const items = messages
    .map((m) => {
      const title = m.subject ?? (m.kind === 'mobile-pin' ? 'SMS: PIN' : 'SMS');
      const pin = m.pin
        ? `<p>PIN: <span class="pin" tabindex="0" title="Click to select">${escapeHtml(m.pin)}</span></p>`
        : '';
      return `<li><p class="meta">${escapeHtml(m.channel.toUpperCase())} · ${escapeHtml(m.kind)} · <time datetime="${m.createdAt}">${escapeHtml(m.createdAt.replace('T', ' ').slice(0, 19))} UTC</time></p>
<h2>${escapeHtml(title)}</h2><p class="meta">To: ${escapeHtml(m.to)}</p>${pin}<pre>${textWithLinks(m.text)}</pre></li>`;
    })
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Outbox (development)</title><style>${css}</style></head><body><main>
<h1>Outbox</h1><p>What the server sent by e-mail and SMS, newest first (the last ${SHOWN}). Development and test only: this page does not exist in production. JSON: <a href="?format=json">?format=json</a>.</p>
${messages.length ? `<ol>${items}</ol>` : '<p>No messages yet.</p>'}
</main></body></html>`;
}

/** Messages to the outbox page's shape: links and a PIN picked out so a person or a test can follow them. */
export async function outboxMessages(db: Db, limit = SHOWN): Promise<DevOutboxMessage[]> {
  const rows = await db
    .selectFrom('outbox')
    .select(['id', 'channel', 'kind', 'recipient', 'subject', 'body', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    channel: row.channel,
    kind: row.kind,
    to: row.recipient,
    subject: row.subject,
    text: row.body,
    links: [...row.body.matchAll(LINK)].map((m) => m[0]),
    pin: row.kind === 'mobile-pin' ? (PIN.exec(row.body)?.[1] ?? null) : null,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}

/**
 * GET /dev/outbox (outside production only; the app does not register it there, so it is a 404):
 * a readable page of every message, or JSON with `Accept: application/json` or `?format=json`.
 */
export const devOutboxRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    appPaths.devOutbox,
    {
      schema: {
        hide: true,
        querystring: Type.Object({
          format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('html')])),
        }),
      },
    },
    async (request, reply) => {
      const messages = await outboxMessages(db);
      const accept = request.headers.accept ?? '';
      const wantsJson =
        request.query.format === 'json' ||
        (request.query.format !== 'html' &&
          accept.includes('application/json') &&
          !accept.includes('text/html'));
      reply.header('cache-control', 'no-store').header('vary', 'Accept');
      if (wantsJson) {
        const body: DevOutboxResponse = { messages };
        return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
      }
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', csp)
        .send(page(messages));
    },
  );
};
