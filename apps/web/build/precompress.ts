import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Files worth compressing: text. Images (except SVG) and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest|xml)$/;
/**
 * Below this a compressed copy saves less than its Content-Encoding header costs. The app has many
 * chunks of 0.3–1 kB (query hooks, small components); their copies save about 3 kB on the status page.
 */
const MIN_BYTES = 256;
/** A copy is written only when it saves at least this much (the header it needs, with room to spare). */
const MIN_SAVING_BYTES = 64;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? filesUnder(full) : Promise.resolve([full]);
    }),
  );
  return nested.flat();
}

/**
 * Writes `file.br` (brotli, quality 11) and `file.gz` (gzip, level 9) next to every compressible
 * file of the build, once, at build time; the server sends them as they are (no compression work
 * per request). A copy that does not save a header's worth of bytes is not written; the server then
 * sends the file as it is.
 */
export function precompress(): Plugin {
  return {
    name: 'roadpass:precompress',
    apply: 'build',
    // After the files are written (a build without writing has nothing to compress).
    async writeBundle(options) {
      if (!options.dir) return;
      const files = (await filesUnder(options.dir)).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          if ((await stat(file)).size < MIN_BYTES) return;
          const source = await readFile(file);
          const [br, gz] = await Promise.all([
            brotli(source, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
              },
            }),
            gzipAsync(source, { level: 9 }),
          ]);
          if (br.length + MIN_SAVING_BYTES <= source.length) await writeFile(`${file}.br`, br);
          if (gz.length + MIN_SAVING_BYTES <= source.length) await writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}
