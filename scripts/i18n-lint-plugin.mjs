// A plugin of `i18next-cli lint` (i18next.config.mjs) for a command-line program. The linter's own
// rules look for text in JSX, which the CLI has none of; this plugin adds two sources of findings
// to the same report, so `i18next-cli lint` fails on a hard-coded message in cli/:
// - the candidates of i18next-cli's own instrumenter (its heuristics for user-facing string
//   literals and templates in any code), found in a dry run that changes no file;
// - literals passed where the CLI puts text for a person: commander's descriptions and help texts,
//   the output helpers (say, note, warn), the CLI's errors and prompts, and table headers.
// A line after `// i18next-instrument-ignore-next-line` (say why on that line) is not reported;
// whole files that are not text for a person are listed with their reason in i18next.config.mjs.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseSync } from '@swc/core';
import { runInstrumenter } from 'i18next-cli';

/** Calls whose arguments at these positions are text for a person. */
const SINKS = {
  description: [0],
  summary: [0],
  option: [1],
  Option: [1],
  requiredOption: [1],
  argument: [1],
  Argument: [1],
  addHelpText: [1],
  helpOption: [1],
  showHelpAfterError: [0],
  say: [1],
  note: [1],
  warn: [1],
  UsageError: [0, 1],
  CliError: [0, 2],
  InvalidArgumentError: [0],
  confirmDestructive: [2],
  text: [0],
  input: [0],
  password: [0],
  select: [0],
  checkbox: [0],
  confirm: [0],
  openOption: [1],
  printTable: [3],
  listOptions: [1],
  write: [0],
};
/** Object properties whose string values are text for a person (table columns, prompt choices). */
const PROPERTIES = new Set(['header', 'empty', 'what']);
const IGNORE = 'i18next-instrument-ignore-next-line';

const isText = (text) => /\p{L}{2,}/u.test(text);

/**
 * Which of the instrumenter's candidates count: it also proposes terminal escape sequences, file
 * name templates and single identifiers (`AbortPromptError`), which are no text for a person; a
 * message has at least two words. (The sinks above catch one-word texts such as a table header.)
 */
export const isCandidateText = (text) => {
  const bare = text.replace(/\{\{[^}]*\}\}/g, 'x');
  return !text.includes('\u001b') && !text.startsWith('-') && /\p{L}{2,}/u.test(bare) && /\S\s+\S/.test(bare);
};

function literalText(node) {
  if (!node) return undefined;
  if (node.type === 'StringLiteral') return node.value;
  if (node.type === 'TemplateLiteral') return node.quasis.map((q) => q.cooked ?? q.raw).join('{{…}}');
  return undefined;
}

function calleeName(callee) {
  if (callee?.type === 'Identifier') return callee.value;
  if (callee?.type === 'MemberExpression' && callee.property?.type === 'Identifier') return callee.property.value;
  return undefined;
}

/** The literal nodes in the sinks of a parsed file (swc AST), in source order. */
export function sinkNodes(ast) {
  const found = [];
  const take = (node) => {
    const text = literalText(node);
    if (text !== undefined && isText(text)) found.push(node);
  };
  const visit = (node) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    if (node.type === 'CallExpression' || node.type === 'NewExpression') {
      const name = calleeName(node.callee);
      for (const index of name && Object.hasOwn(SINKS, name) ? SINKS[name] : []) take(node.arguments?.[index]?.expression);
      // printFields(io, [['Label', value], …]): the labels.
      if (name === 'printFields') {
        for (const element of node.arguments?.[1]?.expression?.elements ?? []) {
          if (element?.expression?.type === 'ArrayExpression') take(element.expression.elements[0]?.expression);
        }
      }
    }
    if (node.type === 'KeyValueProperty' && node.key?.type === 'Identifier' && PROPERTIES.has(node.key.value)) take(node.value);
    for (const key of Object.keys(node)) if (key !== 'span' && key !== 'type') visit(node[key]);
  };
  visit(ast);
  return found;
}

/** The texts of the literals in the sinks of one file's source, in source order. */
export function sinkLiterals(code) {
  return sinkNodes(parseSync(code, { syntax: 'typescript', comments: false })).map(literalText);
}

/** The 1-based line of the first occurrence of `text`'s first literal part at or after `from`. */
function lineOf(code, text, from) {
  const head = text.split('{{…}}').find((part) => part.length > 0) ?? text;
  const at = code.indexOf(head, from);
  return at < 0 ? { line: 0, next: from } : { line: code.slice(0, at).split('\n').length, next: at + head.length };
}

export function hardcodedStrings() {
  const candidates = new Map();
  return {
    name: 'cli-hardcoded-strings',
    lintExtensions: ['.ts'],
    async lintSetup({ config }) {
      const capture = {
        name: 'capture',
        instrumentOnResult(file, found) {
          candidates.set(relative(process.cwd(), file), found);
          return [];
        },
      };
      const silent = { info() {}, warn() {}, error() {} };
      await runInstrumenter({ ...config, plugins: [capture] }, { isDryRun: true, quiet: true }, silent);
    },
    lintOnResult(filePath, issues) {
      const file = relative(process.cwd(), filePath);
      const code = readFileSync(filePath, 'utf8');
      const lines = code.split('\n');
      const ignored = (line) => line > 1 && lines[line - 2].includes(IGNORE);
      const more = [];
      let from = 0;
      for (const text of sinkLiterals(code)) {
        const { line, next } = lineOf(code, text, from);
        from = next;
        if (!ignored(line)) more.push({ text, line, type: 'hardcoded' });
      }
      for (const candidate of (candidates.get(file) ?? []).filter((c) => isCandidateText(c.content) && !ignored(c.line))) {
        if (!more.some((issue) => issue.line === candidate.line)) more.push({ text: candidate.content, line: candidate.line, type: 'hardcoded' });
      }
      return [...issues, ...more].sort((a, b) => a.line - b.line);
    },
  };
}
