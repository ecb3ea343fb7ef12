import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_TABLE_END,
  CONFIG_TABLE_START,
  configTableRows,
  configVariableNames,
} from './config-schema.js';
import { ConfigError, loadConfig } from './config.js';

const readme = readFileSync(path.resolve(import.meta.dirname, '../../../README.md'), 'utf8');

/** The README's configuration table, between its markers, as trimmed cells (alignment ignored). */
function readmeTableRows(): string[][] {
  const start = readme.indexOf(CONFIG_TABLE_START);
  const end = readme.indexOf(CONFIG_TABLE_END);
  expect(start, 'README.md has the configuration table markers').toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  return readme
    .slice(start + CONFIG_TABLE_START.length, end)
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim().replace(/\s+/g, ' ')),
    );
}

describe('the configuration schema and the README', () => {
  it('agree on every variable, its default, what is allowed and what it means (npm run docs:config)', () => {
    expect(readmeTableRows()).toEqual(configTableRows());
  });

  it('reports problems in the order the README lists the variables', () => {
    let error: unknown;
    try {
      // Given in another order than the table's.
      loadConfig({
        TAG_MANAGER_ID: 'no spaces please',
        PORT: 'x',
        LOG_LEVEL: 'loud',
        DATABASE_POOL_SIZE: '0',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const named = (error as ConfigError).problems.map((p) => p.split(' ')[0]!);
    expect(named).toEqual(['PORT', 'DATABASE_POOL_SIZE', 'LOG_LEVEL', 'TAG_MANAGER_ID']);
    expect(named).toEqual(
      [...named].sort(
        (a, b) => configVariableNames.indexOf(a as never) - configVariableNames.indexOf(b as never),
      ),
    );
    expect((error as ConfigError).message).toContain(
      'LOG_LEVEL must be fatal, error, warn, info, debug, trace or silent (got "loud")',
    );
    expect((error as ConfigError).message).toContain(
      'TAG_MANAGER_ID must be a container id like GTM-AB12CD (got "no spaces please")',
    );
  });

  it('takes every value the table allows and refuses one outside it, for each whole-number variable', () => {
    for (const name of configVariableNames) {
      const row = configTableRows().find((r) => r[0] === `\`${name}\``)!;
      const range = /^whole number (\d+)–(\d+)$/.exec(row[2]!);
      if (!range) continue;
      const [min, max] = [Number(range[1]), Number(range[2])];
      expect(() => loadConfig({ [name]: String(min) }), name).not.toThrow();
      expect(() => loadConfig({ [name]: String(max) }), name).not.toThrow();
      expect(() => loadConfig({ [name]: String(max + 1) }), name).toThrow(
        `${name} must be a whole number from ${min} to ${max}`,
      );
    }
  });
});
