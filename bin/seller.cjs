#!/usr/bin/env node
// CommonJS, so that Node does not start its ES module loader for a command (scripts/build.mjs).
require('../dist/cli/main.cjs');
