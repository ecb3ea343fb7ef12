import type { StoredErrorReport } from './error-report-repository.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * The dev page: the newest envelopes (error reports and feedback) as stored, plain HTML (no script, no
 * inline style: the CSP holds).
 */
export function errorReportsPage(reports: StoredErrorReport[]): string {
  const items = reports
    .map(
      (r) => `<li><article aria-labelledby="report-${r.id}">
<h2 id="report-${r.id}">#${r.id} ${escapeHtml(r.itemTypes)} · ${r.receivedAt.toISOString()}</h2>
<p>Event id: ${escapeHtml(r.eventId ?? '–')} · ${r.sizeBytes} bytes · forwarded: ${escapeHtml(r.forwardStatus ?? 'no')}</p>
<pre>${escapeHtml(r.envelope.length > 20_000 ? `${r.envelope.slice(0, 20_000)}…` : r.envelope)}</pre>
</article></li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Error reports and feedback (development)</title></head>
<body><main><h1>Error reports and feedback</h1>
<p>The newest ${reports.length} envelopes the error reporting tunnel stored: errors (item type event) and
"Report a Bug" submissions (item type feedback, the text under contexts.feedback.message). Not served in production.</p>
${reports.length ? `<ol>${items}</ol>` : '<p>No error reports or feedback yet.</p>'}
</main></body></html>
`;
}
