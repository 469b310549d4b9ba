#!/usr/bin/env node
/**
 * Extracts what the tests need from the specification (seller-api.md, which a user's clone does not
 * have) into `test/data/spec-endpoints.json`, so `npm test` runs anywhere:
 *   - `endpoints`: every `| METHOD | /api/v1/... |` row of the endpoint tables, as [method, path];
 *   - `ruleRefusals`: every (endpoint, kind) row of the "Rule refusals" table.
 *
 *   node scripts/spec-data.mjs path/to/seller-api.md            rewrite the data file
 *   node scripts/spec-data.mjs --check path/to/seller-api.md    exit 1 when the data file is stale
 *
 * CI (.ci/run) runs the check where the specification sits beside the clone.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const given = args.find((a) => a !== '--check');
if (given === undefined) {
  console.error('usage: node scripts/spec-data.mjs [--check] path/to/seller-api.md');
  process.exit(2);
}
const specFile = path.resolve(given);
const dataFile = path.join(root, 'test/data/spec-endpoints.json');

/** The data the tests read, from the text of seller-api.md. */
export function extract(text) {
  const endpoints = [...text.matchAll(/^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*(\/api\/v1\/[^\s|]*)\s*\|/gm)].map((m) => [m[1], m[2]]);
  const section = text.slice(text.indexOf('### Rule refusals'), text.indexOf('## Limits'));
  const ruleRefusals = [...section.matchAll(/^\|\s*([a-z ]+?)\s*\|\s*(\w+)\s*\|/gm)]
    .map((m) => [m[1], m[2]])
    .filter(([e]) => e !== 'endpoint');
  return {
    note:
      'Extracted from the specification (spec/seller-api.md) by scripts/spec-data.mjs; do not edit by hand. ' +
      'endpoints: the [method, path] of every endpoint-table row; ruleRefusals: the [endpoint, kind] rows of "Rule refusals".',
    endpoints,
    ruleRefusals,
  };
}

const text = readFileSync(specFile, 'utf8');
/** One pair a line: the file reads (and diffs) like the table it comes from. */
function format(data) {
  const pairs = (rows) => rows.map((r) => `    ${JSON.stringify(r)}`).join(',\n');
  return `{\n  "note": ${JSON.stringify(data.note)},\n  "endpoints": [\n${pairs(data.endpoints)}\n  ],\n  "ruleRefusals": [\n${pairs(data.ruleRefusals)}\n  ]\n}\n`;
}

const fresh = format(extract(text));
if (check) {
  let old = '';
  try {
    old = readFileSync(dataFile, 'utf8');
  } catch {}
  if (old !== fresh) {
    console.error(`${path.relative(root, dataFile)} is stale: run node scripts/spec-data.mjs ${path.relative(process.cwd(), specFile)}`);
    process.exit(1);
  }
  console.log(`${path.relative(root, dataFile)} matches ${specFile}`);
} else {
  writeFileSync(dataFile, fresh);
  console.log(`wrote ${path.relative(root, dataFile)}`);
}
