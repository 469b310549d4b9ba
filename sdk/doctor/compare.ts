/**
 * Comparing one answer with the contract, for `seller doctor` (sdk/doctor/sweep.ts): where an
 * answer of the real service differs from what the operation table says it is.
 *
 * The comparison is done by kept libraries, not by hand: the operation's answer schema becomes a
 * JSON Schema (zod's `z.toJSONSchema`, output side), made strict at every depth (an object with
 * declared properties gets `additionalProperties: false`, so an unknown field is reported, not
 * dropped), and ajv checks the answer against it with `allErrors` (every difference, not the
 * first). ajv's errors become findings of a few kinds, each with a normalised path
 * (`items[].status`): the path names the place in the contract, so the same difference on fifty
 * records is one finding.
 *
 * A finding never carries a value of the answer, except the value of an enum-like field (an unknown
 * `status` such as `on_hold`), truncated, and only when it looks like a code: names of fields,
 * JSON type names and codes are safe to print; secrets, stock items, e-mails and texts are not.
 */
import { z } from 'zod';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { loadAjv } from './ajv.ts';
import type { AnyOperation } from '../contract/operation.ts';

/** What kind of difference a finding is. */
export type FindingKind =
  /** A field the contract does not declare. */
  | 'unknown_field'
  /** A value outside the contract's enum (or literal). */
  | 'unknown_value'
  /** A field the contract requires is absent. */
  | 'missing_field'
  /** A value of another JSON type than the contract's. */
  | 'wrong_type'
  /** A value of the right type that breaks the contract's format (pattern, range, length). */
  | 'wrong_format'
  /** Another success status than the contract's. */
  | 'other_status'
  /** A list answer that pages otherwise: no `nextCursor`, or another field that looks like a cursor. */
  | 'other_paging'
  /** An error answer whose `error` code the contract does not know. */
  | 'unknown_error_code';

/** One difference at one place of one answer. */
export interface Finding {
  kind: FindingKind;
  /** Normalised path: `items[].status`, `deliveryMethods{}.[]`; `` for the answer itself. */
  path: string;
  /** The first concrete place it was seen: `items[3].status`. */
  examplePath: string;
  /** A value safe to show (enum-like codes, statuses, JSON type names), truncated; else undefined. */
  example?: string | undefined;
  /** What the contract expects, in a few words (`one of: active, paused, off`; `string`). */
  expected?: string | undefined;
}

/** The longest example value shown. */
export const EXAMPLE_MAX = 40;

/** A value is shown only when it looks like a code: letters, digits and `_ . : -`, nothing else. */
const CODE_LIKE = /^[A-Za-z0-9_.:-]{1,200}$/;

/** The value as a finding may show it: a code-like string or a number, truncated; else undefined. */
export function safeExample(value: unknown): string | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string' || !CODE_LIKE.test(value)) return undefined;
  // An e-mail has an @ (refused above); a key or secret is long and code-like: keys' prefixes are refused.
  if (/^(service_(live|test)_|whsec_|sk_|pk_)/i.test(value)) return undefined;
  return value.length > EXAMPLE_MAX ? `${value.slice(0, EXAMPLE_MAX)}…` : value;
}

/** The JSON type name of a value, as JSON Schema names them. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

type JsonSchema = Record<string, unknown>;

/**
 * The answer schema of an operation as a strict JSON Schema: every object with declared properties
 * and no declared extra-property schema refuses unknown properties, at every depth.
 */
export function strictAnswerSchema(op: AnyOperation): JsonSchema {
  const schema = z.toJSONSchema(op.answer as z.ZodType, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  return strictify(schema) as JsonSchema;
}

function strictify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictify);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    // `properties` and `$defs` map names to schemas: walk their values, not their names.
    if ((key === 'properties' || key === '$defs' || key === 'definitions') && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, strictify(sub)]));
    } else {
      out[key] = strictify(value);
    }
  }
  if (out.properties !== undefined && (out.additionalProperties === undefined || out.additionalProperties === true)) {
    out.additionalProperties = false;
  }
  return out;
}

let ajv: Ajv2020 | undefined;
const validators = new WeakMap<AnyOperation, ValidateFunction>();

/** The compiled check of an operation's answer (compiled once per operation). */
function validatorOf(op: AnyOperation): ValidateFunction {
  let validate = validators.get(op);
  if (validate === undefined) {
    ajv ??= new (loadAjv())({ allErrors: true, verbose: true, strict: false, validateFormats: false });
    const { $schema: _ignored, ...schema } = strictAnswerSchema(op);
    validate = ajv.compile(schema);
    validators.set(op, validate);
  }
  return validate;
}

/** Names of cursor-like fields: another API's next-page field. */
const CURSOR_LIKE = /^(next|next_?cursor|next_?page(_?token)?|cursor|page_?token|continuation(_?token)?|after|offset|has_?more|more|links)$/i;

/** Differences between one success answer (status and parsed body) and the operation's contract. */
export function compareAnswer(op: AnyOperation, status: number, body: unknown): Finding[] {
  const findings: Finding[] = [];
  if (status !== op.status) {
    findings.push({ kind: 'other_status', path: '', examplePath: '', example: String(status), expected: String(op.status) });
  }
  const validate = validatorOf(op);
  if (!validate(body)) findings.push(...findingsOf(relevantErrors(validate.errors ?? [])));
  if (op.paging === 'cursor') return pagingFindings(findings, body);
  return findings;
}

/** For a cursor-paged list: a missing `nextCursor` or a cursor-like unknown field is a paging difference. */
function pagingFindings(findings: Finding[], body: unknown): Finding[] {
  const out: Finding[] = [];
  for (const finding of findings) {
    if (finding.kind === 'missing_field' && finding.path === 'nextCursor') {
      out.push({ ...finding, kind: 'other_paging', expected: 'nextCursor' });
    } else if (finding.kind === 'unknown_field' && !finding.path.includes('.') && CURSOR_LIKE.test(finding.path)) {
      out.push({ ...finding, kind: 'other_paging', expected: 'nextCursor' });
    } else {
      out.push(finding);
    }
  }
  // A list that names its cursor otherwise is one difference (the other name), not two.
  if (out.some((f) => f.kind === 'other_paging' && f.path !== 'nextCursor')) {
    return out.filter((f) => !(f.kind === 'other_paging' && f.path === 'nextCursor'));
  }
  return out;
}

/**
 * ajv reports every branch of an `anyOf` (a nullable field is `anyOf: [T, null]`): keep the errors
 * of the branch the value's type fits, drop the others and the `anyOf` error itself; when no branch
 * fits, one `type` error at that place stands for them.
 */
function relevantErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const dropped = new Set<ErrorObject>();
  const added: ErrorObject[] = [];
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const union of unions) {
    if (dropped.has(union)) continue;
    dropped.add(union);
    const prefix = `${union.schemaPath}/`;
    const branches = new Map<string, ErrorObject[]>();
    for (const error of errors) {
      if (error === union || dropped.has(error) || !error.schemaPath.startsWith(prefix)) continue;
      const here = error.instancePath === union.instancePath || error.instancePath.startsWith(`${union.instancePath}/`);
      if (!here) continue;
      const index = error.schemaPath.slice(prefix.length).split('/')[0]!;
      branches.set(index, [...(branches.get(index) ?? []), error]);
    }
    const fits = [...branches.values()].filter(
      (list) => !list.some((e) => e.instancePath === union.instancePath && (e.keyword === 'type' || e.keyword === 'const')),
    );
    fits.sort((a, b) => a.length - b.length);
    const keep = fits[0];
    for (const list of branches.values()) if (list !== keep) for (const error of list) dropped.add(error);
    if (keep === undefined) {
      const types = [...branches.values()].flatMap((list) => list.filter((e) => e.keyword === 'type').map((e) => String(e.params.type)));
      added.push({ ...union, keyword: 'type', params: { type: [...new Set(types)].join(' or ') } });
    }
  }
  return [...errors.filter((e) => !dropped.has(e)), ...added];
}

/** `#/properties/items/items/properties/status/enum` → `items[].status` (the keyword itself dropped). */
export function normalisedPath(schemaPath: string): string {
  const tokens = schemaPath.replace(/^#\/?/, '').split('/').filter((t) => t !== '');
  tokens.pop(); // the failing keyword
  let path = '';
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === 'properties' && i + 1 < tokens.length) {
      const name = unescapePointer(tokens[++i]!);
      path += path === '' ? name : `.${name}`;
    } else if (token === 'items') path += '[]';
    else if (token === 'prefixItems' && i + 1 < tokens.length) path += `[${tokens[++i]}]`;
    else if (token === 'additionalProperties') path += '{}';
    else if (token === 'propertyNames') path += '{key}';
    else if ((token === 'anyOf' || token === 'oneOf' || token === 'allOf') && i + 1 < tokens.length) i++;
  }
  return path;
}

/** `/items/3/status` → `items[3].status`. */
export function concretePath(instancePath: string): string {
  let path = '';
  for (const raw of instancePath.split('/').slice(1)) {
    const token = unescapePointer(raw);
    if (/^\d+$/.test(token)) path += `[${token}]`;
    else {
      // A field name, or a key of a record: shown only when it looks like a name.
      const name = safeExample(token) === token ? token : '{key}';
      path += path === '' ? name : `.${name}`;
    }
  }
  return path;
}

function unescapePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

const join = (base: string, name: string) => (base === '' ? name : `${base}.${name}`);

function findingsOf(errors: readonly ErrorObject[]): Finding[] {
  const findings: Finding[] = [];
  for (const error of errors) {
    const path = normalisedPath(error.schemaPath);
    const examplePath = concretePath(error.instancePath);
    const { params } = error;
    // A record key outside an enum (`deliveryMethods` keyed by product type) is an unknown value.
    const keyName = (error as { propertyName?: string }).propertyName;
    switch (error.keyword) {
      case 'additionalProperties': {
        const name = String(params.additionalProperty);
        findings.push({ kind: 'unknown_field', path: join(path, name), examplePath: join(examplePath, name) });
        break;
      }
      case 'required': {
        const name = String(params.missingProperty);
        findings.push({ kind: 'missing_field', path: join(path, name), examplePath: join(examplePath, name) });
        break;
      }
      case 'enum':
      case 'const': {
        const allowed = (error.keyword === 'enum' ? (params.allowedValues as unknown[]) : [params.allowedValue]).map(String);
        const value = keyName ?? error.data;
        const where = keyName === undefined ? examplePath : `${examplePath}{${safeExample(keyName) ?? 'key'}}`;
        findings.push({ kind: 'unknown_value', path, examplePath: where, example: safeExample(value), expected: `one of: ${allowed.join(', ')}` });
        break;
      }
      case 'type':
        findings.push({ kind: 'wrong_type', path, examplePath, example: jsonType(error.data), expected: String(params.type) });
        break;
      case 'propertyNames':
        // Its sub-error (the key's enum or pattern) is reported on its own.
        break;
      default:
        findings.push({ kind: 'wrong_format', path, examplePath, expected: error.keyword });
    }
  }
  return findings;
}
