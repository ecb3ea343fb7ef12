import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The product description (docs/product/) and the decision records (docs/decisions/) are cited from
// code, tests, content and docs. A citation has to lead somewhere: these checks read every text file
// of the repository and fail on a page or anchor that does not exist.

const root = path.resolve(import.meta.dirname, '../../..');
const scanned = ['apps', 'packages', 'e2e', 'docs', 'scripts', 'content', 'README.md'];
const skippedFolders = new Set([
  'node_modules',
  'dist',
  'data',
  'test-results',
  'playwright-report',
  '.reports',
]);
const textFile = /\.(ts|tsx|mts|cts|js|mjs|cjs|css|md|json|html|ya?ml|sql)$/;

function filesUnder(relative: string): string[] {
  const full = path.join(root, relative);
  if (!existsSync(full)) return [];
  if (
    !readdirSync(path.dirname(full), { withFileTypes: true })
      .find((e) => e.name === path.basename(full))
      ?.isDirectory()
  )
    return textFile.test(relative) ? [relative] : [];
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory())
      return skippedFolders.has(entry.name) ? [] : filesUnder(path.join(relative, entry.name));
    const file = path.join(relative, entry.name);
    return textFile.test(entry.name) ? [file] : [];
  });
}

const files = scanned.flatMap(filesUnder).map((file) => ({
  file: file.split(path.sep).join('/'),
  text: readFileSync(path.join(root, file), 'utf8'),
}));

/** Anchors of a Markdown page: explicit `<a id="…">` and the GitHub slugs of its headings. */
function anchorsOf(page: string): Set<string> {
  const text = readFileSync(path.join(root, page), 'utf8');
  const anchors = new Set([...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!));
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    anchors.add(
      heading!
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    );
  }
  return anchors;
}

const anchorCache = new Map<string, Set<string>>();
const anchorsOfPage = (page: string) => {
  if (!anchorCache.has(page)) anchorCache.set(page, anchorsOf(page));
  return anchorCache.get(page)!;
};

/** Every product page (and anchor) cited by its repository path, and every link between the product pages. */
function productCitations(): { where: string; page: string; anchor?: string }[] {
  const citations: { where: string; page: string; anchor?: string }[] = [];
  for (const { file, text } of files) {
    for (const m of text.matchAll(/docs\/product\/([\w./-]*?\.md)(?:#([\w-]+))?/g)) {
      citations.push({ where: file, page: `docs/product/${m[1]}`, anchor: m[2] });
    }
    if (!file.startsWith('docs/product/')) continue;
    for (const m of text.matchAll(/\]\((?!https?:|\.\.\/)([\w-]*\.md)?(?:#([\w-]+))?\)/g)) {
      citations.push({ where: file, page: m[1] ? `docs/product/${m[1]}` : file, anchor: m[2] });
    }
  }
  return citations;
}

describe('the product description (docs/product)', () => {
  it('has every page and anchor the repository cites', () => {
    const citations = productCitations();
    expect(citations.length).toBeGreaterThan(10);
    const broken = citations
      .filter(
        ({ page, anchor }) =>
          !existsSync(path.join(root, page)) || (anchor && !anchorsOfPage(page).has(anchor)),
      )
      .map(({ where, page, anchor }) => `${where}: ${page}${anchor ? `#${anchor}` : ''}`);
    expect(broken).toEqual([]);
  });

  it('is what the code cites, not documents outside the repository', () => {
    // Built from parts so that this file does not cite them itself.
    const oldCitation = new RegExp(`\\b(spec|product\\s+decisions)\\s*(\\*|//)?\\s*\\u00a7`, 'i');
    // The product README's table of former section numbers names them on purpose.
    const left = files
      .filter(({ file, text }) => file !== 'docs/product/README.md' && oldCitation.test(text))
      .map(
        ({ file, text }) =>
          `${file}: ${text
            .split('\n')
            .find((line) => /\u00a7/.test(line))!
            .trim()}`,
      );
    expect(left).toEqual([]);
  });
});

describe('the decision records (docs/decisions)', () => {
  const records = readdirSync(path.join(root, 'docs/decisions')).filter((f) => /^\d{4}-.+\.md$/.test(f));

  it('are numbered once each, and the index lists every one', () => {
    const numbers = records.map((f) => f.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
    const unnumbered = readdirSync(path.join(root, 'docs/decisions')).filter(
      (f) => f.endsWith('.md') && f !== 'README.md' && !records.includes(f),
    );
    expect(unnumbered).toEqual([]);
    const index = readFileSync(path.join(root, 'docs/decisions/README.md'), 'utf8');
    expect(records.filter((f) => !index.includes(`(${f})`))).toEqual([]);
  });

  it('exist wherever the repository names one by its file', () => {
    const broken = files.flatMap(({ file, text }) =>
      [...text.matchAll(/docs\/decisions\/([\w.-]+\.md)/g)]
        .filter((m) => m[1] !== 'README.md' && !records.includes(m[1]!))
        .map((m) => `${file}: ${m[0]}`),
    );
    expect(broken).toEqual([]);
  });
});
