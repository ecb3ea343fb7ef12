import { appPaths } from '@roadpass/contracts';
import { readableEnvelope, storedAttachments } from './envelope.js';
import type { StoredErrorReport } from './error-report-repository.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** What the dev page shows inline as a picture; anything else is only a download. */
export const PREVIEWED_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

/** Where the dev page serves attachment `index` (0-based, in envelope order) of report `id`. */
export const devAttachmentPath = (id: string, index: number | string) =>
  `${appPaths.devErrorReports}/${id}/attachments/${index}`;

function attachmentList(report: StoredErrorReport): string {
  const attachments = storedAttachments(report.envelope);
  if (attachments.length === 0) return '';
  const items = attachments.map((attachment, index) => {
    const href = devAttachmentPath(report.id, index);
    const name = escapeHtml(attachment.filename);
    const preview = PREVIEWED_IMAGE_TYPES.has(attachment.contentType)
      ? `<br><img src="${href}" alt="${name}" width="240" loading="lazy">`
      : '';
    return `<li data-attachment="${index}"><a href="${href}">${name}</a> · ${escapeHtml(attachment.contentType)} · ${attachment.data.length} bytes${preview}</li>`;
  });
  return `<h3>Attachments</h3><ul>${items.join('')}</ul>`;
}

/**
 * The dev page: the newest envelopes (error reports and feedback) as stored, with their attachments
 * (a feedback screenshot: name, type, size and the picture), plain HTML (no script, no inline style:
 * the CSP holds).
 */
export function errorReportsPage(reports: StoredErrorReport[]): string {
  const items = reports
    .map((r) => {
      const text = readableEnvelope(r.envelope);
      return `<li><article aria-labelledby="report-${r.id}">
<h2 id="report-${r.id}">#${r.id} ${escapeHtml(r.itemTypes)} · ${r.receivedAt.toISOString()}</h2>
<p>Event id: ${escapeHtml(r.eventId ?? '–')} · ${r.sizeBytes} bytes · forwarded: ${escapeHtml(r.forwardStatus ?? 'no')}</p>
${attachmentList(r)}
<pre>${escapeHtml(text.length > 20_000 ? `${text.slice(0, 20_000)}…` : text)}</pre>
</article></li>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Error reports and feedback (development)</title></head>
<body><main><h1>Error reports and feedback</h1>
<p>The newest ${reports.length} envelopes the error reporting tunnel stored: errors (item type event) and
"Report a Bug" submissions (item type feedback, the text under contexts.feedback.message; a screenshot
is an item of type attachment). Not served in production.</p>
${reports.length ? `<ol>${items}</ol>` : '<p>No error reports or feedback yet.</p>'}
</main></body></html>
`;
}
