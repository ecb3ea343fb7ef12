import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// A feature's page loads its own stylesheets and the shared ones (components/, app/), never another
// feature's: a class styled only in another feature is unstyled wherever that feature is not loaded
// (28 Nov: the close-account page used the privacy page's classes, its heading at the browser's 24 px).
const src = path.resolve(import.meta.dirname, '..');

function filesUnder(folder: string, ending: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(ending))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** `features/<name>` of a file, or undefined for the shared code. */
const featureOf = (file: string) => {
  const [top, name] = path.relative(src, file).split(path.sep);
  return top === 'features' ? name : undefined;
};

describe("the features' stylesheets", () => {
  it('style every class a feature uses in its own or in shared stylesheets', () => {
    const definedIn = new Map<string, Set<string | undefined>>();
    for (const file of filesUnder(src, '.css'))
      for (const [, name] of readFileSync(file, 'utf8').matchAll(/\.([a-z][\w-]*)/gi))
        definedIn.set(name!, (definedIn.get(name!) ?? new Set()).add(featureOf(file)));

    const borrowed: string[] = [];
    for (const file of filesUnder(path.join(src, 'features'), '.tsx')) {
      if (file.includes('.test.')) continue;
      const feature = featureOf(file);
      const code = readFileSync(file, 'utf8');
      for (const [, plain, inBraces] of code.matchAll(/className=(?:"([^"]+)"|\{[^}]*?['"`]([^'"`]+)['"`])/g))
        for (const name of (plain ?? inBraces ?? '').split(/\s+/)) {
          const where = definedIn.get(name);
          if (where && !where.has(feature) && !where.has(undefined))
            borrowed.push(`${path.relative(src, file)}: ${name}`);
        }
    }
    expect(borrowed).toEqual([]);
  });
});
