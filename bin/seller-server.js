#!/usr/bin/env node
// CommonJS, as every file in bin/ (bin/package.json); the server itself is an ES module.
import('../server/dist/esm/main.js').catch((error) => {
  console.error(error);
  process.exit(1);
});
