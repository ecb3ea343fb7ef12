#!/usr/bin/env node
// `npm run docs:config`: writes the README's configuration table from the server's configuration
// schema (apps/server/src/config-schema.ts, loaded with Node's type stripping, no build needed).
// apps/server/src/config-docs.test.ts fails while the two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import {
  CONFIG_TABLE_END,
  CONFIG_TABLE_START,
  configTableMarkdown,
} from '../apps/server/src/config-schema.ts';

const readmePath = path.resolve(import.meta.dirname, '../README.md');
const readme = readFileSync(readmePath, 'utf8');
const start = readme.indexOf(CONFIG_TABLE_START);
const end = readme.indexOf(CONFIG_TABLE_END);
if (start < 0 || end < start) {
  console.error(
    `README.md needs the two markers around the table:\n${CONFIG_TABLE_START}\n${CONFIG_TABLE_END}`,
  );
  process.exit(1);
}
const next =
  readme.slice(0, start + CONFIG_TABLE_START.length) + `\n\n${configTableMarkdown()}\n\n` + readme.slice(end);
const options = (await prettier.resolveConfig(readmePath)) ?? {};
const formatted = await prettier.format(next, { ...options, filepath: readmePath });
if (formatted === readme) console.log('README.md: the configuration table is up to date');
else {
  writeFileSync(readmePath, formatted);
  console.log('README.md: configuration table written');
}
