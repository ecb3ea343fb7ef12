#!/usr/bin/env node
// `npm run loyalty -- <command>`: the loyalty operator command (see loyalty-cli.ts, or run `help`).
import { runLoyaltyCli } from './loyalty-cli.js';

try {
  process.exitCode = await runLoyaltyCli(process.argv.slice(2), {
    out: (text) => console.log(text),
    err: (text) => console.error(text),
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
