import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loyaltyEventTypes } from '@roadpass/contracts';

// Paths as strings: under jsdom the global URL is not the one node:fs accepts.
const src = resolve(import.meta.dirname, '../..');
const english = JSON.parse(
  readFileSync(resolve(src, '../../../content/translations/en.json'), 'utf8'),
) as Record<string, string>;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !path.includes('/testing/') ? [path] : [];
  });
}

const loyaltySources = [
  ...sourceFiles(resolve(src, 'lib/loyalty')),
  ...readdirSync(resolve(src, 'features'))
    .filter((name) => name.startsWith('loyalty-'))
    .flatMap((name) => sourceFiles(resolve(src, 'features', name))),
];

describe('loyalty texts', () => {
  it('exist in en.json for every key the loyalty screens pass to t()', () => {
    const used = new Set<string>();
    for (const file of loyaltySources) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bt\(\s*\[?\s*'(loyalty-[a-z0-9-]+)'/g)) {
        used.add(match[1]!);
      }
    }
    // Keys built at run time.
    for (const type of loyaltyEventTypes) used.add(`loyalty-history-type-${type}`);
    used.add('loyalty-violation-required');
    used.add('loyalty-violation-generic');

    expect(used.size).toBeGreaterThan(50);
    // A counted text exists as its plural forms (`key_one`, `key_other`: i18next's plural suffixes).
    const exists = (key: string) => key in english || (`${key}_one` in english && `${key}_other` in english);
    expect([...used].filter((key) => !exists(key))).toEqual([]);
  });
});
