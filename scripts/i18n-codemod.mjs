// A translator's helper (not run by the build or the tests): moves the hard-coded messages of one
// CLI file into cli/locales/en.json and puts t() calls in their place.
//
//   node scripts/i18n-codemod.mjs cli/commands/keys.ts keys
//
// It takes the literals the lint reports (scripts/i18n-lint-plugin.mjs: the sinks, and the
// candidates of i18next-cli's instrumenter), turns `${expr}` into `{{name}}` placeholders passed
// as t()'s options, names each key after its first words under the given prefix, and prints the
// new English messages (to translate into ru.json under the same keys). Review the diff: a literal
// that is not for people goes back, with `// i18next-instrument-ignore-next-line: <why>` above it.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { parseSync } from '@swc/core';
import { runInstrumenter } from 'i18next-cli';
import { isCandidateText, sinkNodes } from './i18n-lint-plugin.mjs';

const [file, prefix] = process.argv.slice(2);
if (!file || !prefix) throw new Error('usage: node scripts/i18n-codemod.mjs <file.ts> <key prefix>');
const code = readFileSync(file, 'utf8');
const bytes = Buffer.from(code);

// swc's spans are byte offsets counted from the start of its source map: the module's span
// starts at its first token.
const ast = parseSync(code, { syntax: 'typescript', comments: false });
const firstToken = Buffer.byteLength(code.slice(0, code.length - code.replace(/^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*/, '').length));
const base = ast.span.start - firstToken;
const slice = (span) => bytes.subarray(span.start - base, span.end - base).toString();
const charOf = (byte) => bytes.subarray(0, byte).toString().length;

// Every literal, by its character offset (the instrumenter's candidates give those).
const literals = new Map();
(function visit(node) {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach(visit);
  if (node.type === 'StringLiteral' || node.type === 'TemplateLiteral') literals.set(charOf(node.span.start - base), node);
  for (const key of Object.keys(node)) if (key !== 'span') visit(node[key]);
})(ast);

const chosen = new Set(sinkNodes(ast));
const capture = { name: 'capture', instrumentOnResult: (_f, found) => (found.forEach((c) => isCandidateText(c.content) && literals.has(c.offset) && chosen.add(literals.get(c.offset))), []) };
await runInstrumenter({ locales: ['en', 'ru'], extract: { input: [file], output: '/dev/null/{{language}}.json' }, plugins: [capture] }, { isDryRun: true, quiet: true }, { info() {}, warn() {}, error() {} });

const catalogue = JSON.parse(readFileSync('cli/locales/en.json', 'utf8'));
let scope = catalogue;
for (const part of prefix.split('.')) scope = scope[part] ??= {};

const camel = (text) => {
  const words = text.replace(/\{\{[^}]*\}\}/g, ' ').match(/[A-Za-z]+/g) ?? ['message'];
  return words.slice(0, 4).map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join('');
};
function keyFor(text) {
  const existing = Object.entries(scope).find(([, value]) => value === text);
  if (existing) return existing[0];
  let key = camel(text);
  for (let n = 2; Object.hasOwn(scope, key); n++) key = `${camel(text)}${n}`;
  scope[key] = text;
  added[`${prefix}.${key}`] = text;
  return key;
}
function nameOf(expr) {
  if (expr.type === 'Identifier') return expr.value;
  if (expr.type === 'MemberExpression' && expr.property.type === 'Identifier') return expr.property.value;
  if (expr.type === 'CallExpression') return nameOf(expr.callee.type === 'MemberExpression' ? expr.callee.object : expr.callee);
  return 'value';
}

const added = {};
const edits = [];
// A literal inside another chosen one (a template in a template) goes with the outer one.
const inside = (node) => [...chosen].some((other) => other !== node && other.span.start <= node.span.start && node.span.end <= other.span.end);
for (const node of [...chosen].filter((node) => !inside(node))) {
  let text;
  const params = [];
  if (node.type === 'StringLiteral') text = node.value;
  else {
    text = '';
    const used = new Map();
    node.quasis.forEach((quasi, i) => {
      text += quasi.cooked ?? quasi.raw;
      const expr = node.expressions[i];
      if (!expr) return;
      const source = slice(expr.span);
      let name = nameOf(expr).replace(/[^A-Za-z0-9_]/g, '') || 'value';
      for (let n = 2; used.has(name) && used.get(name) !== source; n++) name = `${nameOf(expr)}${n}`;
      used.set(name, source);
      if (!params.some(([p]) => p === name)) params.push([name, source]);
      text += `{{${name}}}`;
    });
  }
  const key = `${prefix}.${keyFor(text)}`;
  const options = params.length ? `, { ${params.map(([name, source]) => (name === source ? name : `${name}: ${source}`)).join(', ')} }` : '';
  edits.push([node.span.start - base, node.span.end - base, `t('${key}'${options})`]);
}

edits.sort((a, b) => b[0] - a[0]);
let out = bytes;
for (const [start, end, text] of edits) out = Buffer.concat([out.subarray(0, start), Buffer.from(text), out.subarray(end)]);
let result = out.toString();
if (edits.length && !/import \{[^}]*\bt\b[^}]*\} from '[./]*i18n\/index\.ts'/.test(result)) {
  const from = relative(dirname(file), 'cli/i18n/index.ts');
  const spec = from.startsWith('.') ? from : `./${from}`;
  result = result.replace(/^(import [^;]+;\n)/m, `import { t } from '${spec}';\n$1`);
}
writeFileSync(file, result);
writeFileSync('cli/locales/en.json', `${JSON.stringify(catalogue, null, 2)}\n`);
console.log(JSON.stringify(added, null, 2));
