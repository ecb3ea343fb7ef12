// Resolves the web app's `@/…` alias and the server's `.js` imports of `.ts` files for
// eslint-plugin-boundaries, then defers to the node resolver.
// (eslint-import-resolver-typescript would do this, but its native bindings are not all published on
// the registry this project installs from, which breaks `npm ci`.)
const path = require('node:path');
const node = require('eslint-import-resolver-node');

const webSrc = path.join(__dirname, '..', 'apps', 'web', 'src');
const extensions = ['.ts', '.tsx', '.js', '.mjs', '.json'];

exports.interfaceVersion = 2;
exports.resolve = (source, file, config) => {
  const options = { extensions, ...config };
  const found = node.resolve(
    source.startsWith('@/') ? path.join(webSrc, source.slice(2)) : source,
    file,
    options,
  );
  // The server's ES module imports name the compiled file (`./x.js`) of a TypeScript source (`./x.ts`).
  if (!found.found && source.startsWith('.') && source.endsWith('.js'))
    return node.resolve(`${source.slice(0, -3)}.ts`, file, options);
  return found;
};
