#!/usr/bin/env node
// `npm run keys -- <command>`: the operator's signing-key rotation (see keys-cli.ts, or run `help`).
import { runKeysCli } from './keys-cli.js';

try {
  process.exitCode = await runKeysCli(process.argv.slice(2), {
    out: (text) => console.log(text),
    err: (text) => console.error(text),
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
