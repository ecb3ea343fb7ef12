import { expect, test } from '@playwright/test';
import yauzl from 'yauzl';
import { apiPaths, exportAreas } from '@roadpass/contracts';
import { routes } from '../../apps/web/src/config/routes.js';
import { newestLinkPath, newestMessage } from './outbox.js';
import { callAsTheApp, openSignedIn, texts } from './support.js';

// "Download my data" (docs/product/data-rights.md#download-my-data), against the real server: asked for
// on the privacy page, its progress, the e-mail when it is ready, the ZIP behind its link, and that no
// other customer's session gets it. One copy a day per customer: this spec runs once (phone size).
const owner = { email: 'demo.it@example.com', country: 'IT', language: 'it' };
const other = 'demo.es@example.com';

/** Every file of a ZIP, as text. */
async function unzip(bytes: Buffer): Promise<Map<string, string>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  const files = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const parts: Buffer[] = [];
        stream.on('data', (part: Buffer) => parts.push(part));
        stream.on('end', () => {
          files.set(entry.fileName, Buffer.concat(parts).toString('utf8'));
          zip.readEntry();
        });
        stream.on('error', reject);
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return files;
}

test('download my data: asked on the privacy page, ready by e-mail, a ZIP in the customer’s language for them only', async ({
  page,
  browser,
}) => {
  const t = texts(owner.language);
  const asked = new Date().toISOString();
  await openSignedIn(page, owner.email);
  await page.goto(routes.account.privacy.build(owner.country, owner.language));
  await expect(page.getByRole('heading', { level: 2, name: t['download-title'] })).toBeVisible();

  // The page follows the job: the progress bar while it is built (it may be done before a poll sees
  // it), then the ready note with the download button.
  const building = page.waitForResponse(
    (response) => response.url().endsWith(apiPaths.dataExport) && response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: t['download-start'] }).click();
  const started = (await (await building).json()) as { export: { state: string; progressPercent: number } };
  expect(['queued', 'running', 'ready']).toContain(started.export.state);
  await expect(page.getByRole('status')).toContainText(t['download-ready']!.split('{{')[0]!.trim());
  // One a day: no second copy can be asked for now.
  await expect(page.getByRole('button', { name: t['download-start'] })).toHaveCount(0);

  // The e-mail, in the customer's language, links to the privacy page, where the ZIP downloads.
  const mail = await newestMessage(page.request, owner.email, 'export-ready', asked);
  expect(mail.subject).toBe('I tuoi dati Roadpass sono pronti da scaricare');
  await page.goto(await newestLinkPath(page.request, owner.email, 'export-ready', asked));
  const saving = page.waitForEvent('download');
  await page.getByRole('button', { name: t['download-file'] }).click();
  const download = await saving;
  expect(download.suggestedFilename()).toMatch(/^roadpass-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const path = await download.path();
  const { readFile } = await import('node:fs/promises');
  const files = await unzip(await readFile(path));

  const index = files.get('index.html')!;
  expect(index).toContain('<html lang="it">');
  expect(index).toContain('I tuoi dati Roadpass');
  for (const area of exportAreas) {
    const json = files.get(`${area}.json`);
    expect(json, `${area}.json is in the ZIP`).toBeDefined();
    expect(() => JSON.parse(json!), `${area}.json parses`).not.toThrow();
    expect(() => JSON.parse(files.get(`schemas/${area}.schema.json`)!)).not.toThrow();
  }
  const profile = JSON.parse(files.get('profile.json')!) as { email?: string };
  expect(JSON.stringify(profile)).toContain(owner.email);
  expect([...files.values()].join('\n')).not.toContain(other);

  // Another customer's session: the same address gives them nothing of this customer's.
  const context = await browser.newContext();
  try {
    const otherPage = await context.newPage();
    await openSignedIn(otherPage, other);
    // (Calls as the app makes them: the DPoP-bound token with a proof of the browser's key.)
    const answer = await callAsTheApp(otherPage, 'GET', apiPaths.dataExportFile);
    expect(answer.status).toBe(404);
    // While the owner's own session gets it.
    const own = await callAsTheApp(page, 'GET', apiPaths.dataExportFile);
    expect(own.status).toBe(200);
    expect(own.headers['content-type']).toContain('application/zip');
  } finally {
    await context.close();
  }
});
