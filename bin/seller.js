#!/usr/bin/env node
// CommonJS (bin/package.json), so that Node does not start its ES module loader for a command
// (scripts/build.mjs); the path stays bin/seller.js, where npx caches already link `seller`.
require('../cli/dist/seller.cjs');
