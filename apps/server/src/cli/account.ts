#!/usr/bin/env node
// `npm run account -- <command>`: the support staff's data-rights command (see account-cli.ts, or run `help`).
import { runAccountCli } from './account-cli.js';

try {
  process.exitCode = await runAccountCli(process.argv.slice(2), {
    out: (text) => console.log(text),
    err: (text) => console.error(text),
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
