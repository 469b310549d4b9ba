/**
 * Checks a scenario before anything runs: its text parsed as YAML (JSON is YAML too) with the
 * position of every node kept, each step checked against its verb's schema (./verbs.ts), then every
 * name a step uses (`order: o1`, `${o1.id}`) checked against the names earlier steps gave. Every
 * problem is reported, each by its path and, for text, its line.
 */
import { z } from 'zod';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { ScenarioInvalidError, type ScenarioIssue, type ScenarioIssueCode } from './errors.ts';
import { checkNames } from './names.ts';
import { issueData } from '../issue-data.ts';
import { EXPECT_KINDS, expectKind, VERB_NAMES, VERBS, type VerbName } from './verbs.ts';

/** A step after checking: its verb, its arguments (defaults filled in), where it is. */
export interface CheckedStep {
  verb: VerbName;
  args: Record<string, unknown>;
  /** 1-based. */
  number: number;
  path: string;
  line?: number;
}

export interface CheckedScenario {
  name: string | null;
  steps: CheckedStep[];
  /** Whether a step moves the clock (the run then takes the clock lease). */
  movesClock: boolean;
  /** The line of a path in the scenario's text (given text): the catalogue check names its lines too. */
  lineOf?: LineOf | undefined;
}

const Top = z.strictObject({
  name: z.string().max(200).optional(),
  description: z.string().optional(),
  steps: z.array(z.unknown()).min(1, 'a scenario has at least one step'),
});

type Path = ReadonlyArray<string | number>;

/** `steps[3].pay.order` from a path. */
export function pathText(path: Path): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out === '' ? '' : '.'}${part}`;
  return out === '' ? '(top level)' : out;
}

/** The line of the node at `path` in a parsed text, or of its nearest ancestor there (a missing key's object). */
export type LineOf = (path: Path) => number | undefined;

function textLines(doc: Document, counter: LineCounter): LineOf {
  return (path) => {
    for (let n = path.length; n >= 0; n--) {
      const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
      const range = (node as { range?: [number, number, number] } | undefined)?.range;
      if (range) return counter.linePos(range[0]).line;
    }
    return undefined;
  };
}

class Issues {
  readonly list: ScenarioIssue[] = [];
  constructor(private readonly lineOf: LineOf | null) {}
  add(path: Path, message: string, code?: ScenarioIssueCode, params?: Record<string, string>, issue?: Record<string, unknown>): void {
    const line = this.lineOf?.(path);
    this.list.push({ path: pathText(path), ...(line === undefined ? {} : { line }), ...(code ? { code } : {}), ...(params ? { params } : {}), message, ...(issue ? { issue } : {}) });
  }
  zod(base: Path, error: z.ZodError, known: readonly string[] = []): void {
    for (const issue of error.issues) {
      const path = [...base, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          // The step's nearest field (`auto` → `autoIssue`), for a key of the step itself.
          const near = issue.path.length === 0 ? nearestField(key, known) : undefined;
          this.add([...path, key], `unknown field ${key}${near ? `; did you mean ${near}?` : ''}`, 'unknown_field', { field: key, ...(near ? { near } : {}) });
        }
      } else if (issue.code === 'custom' && typeof issue.params?.['scenario'] === 'string') {
        // A rule of the format (./verbs.ts: a fault's, a duration's…) as data: its code and values, which a client words.
        const { scenario: rule, ...values } = issue.params as Record<string, unknown>;
        const params = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
        this.add(path, issue.message, 'rule', { rule: String(rule), ...params });
      } else if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) this.add(path, `required (${issue.expected})`, undefined, undefined, issueData(issue));
      else this.add(path, issue.message, undefined, undefined, issueData(issue));
    }
  }
}

/** The known field a mistyped one most likely meant: one it begins or is part of, else one a letter or two away. */
export function nearestField(typed: string, known: readonly string[]): string | undefined {
  const lower = typed.toLowerCase();
  const part = known.filter((k) => k.toLowerCase().startsWith(lower) || k.toLowerCase().includes(lower));
  if (lower.length >= 3 && part.length === 1) return part[0];
  let best: { field: string; edits: number } | undefined;
  for (const field of known) {
    const edits = distance(lower, field.toLowerCase());
    if (edits <= Math.max(1, Math.floor(typed.length / 4)) && (best === undefined || edits < best.edits)) best = { field, edits };
  }
  return best?.field;
}

/** Levenshtein distance. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** Parses a scenario's text (YAML or JSON); throws ScenarioInvalidError naming the line of a syntax error. */
export function parseScenarioText(text: string): { value: unknown; lineOf: LineOf } {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, strict: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ScenarioInvalidError(
      doc.errors.map((e) => ({
        path: '(file)',
        line: counter.linePos(e.pos[0]).line,
        code: 'not_yaml',
        message: `not valid YAML or JSON: ${e.message.split('\n')[0]}`,
      })),
    );
  }
  return { value: doc.toJS({ maxAliasCount: 100 }), lineOf: textLines(doc, counter) };
}

/** Checks a scenario given as text or as an object; throws ScenarioInvalidError naming every problem. */
export function checkScenario(input: string | object): CheckedScenario {
  const parsed = typeof input === 'string' ? parseScenarioText(input) : { value: input, lineOf: null };
  const issues = new Issues(parsed.lineOf);
  const top = Top.safeParse(parsed.value, { reportInput: true });
  if (!top.success) issues.zod([], top.error);
  // A problem of the top level (a misspelt `name`) hides none of the steps': they are checked all the same.
  const rawSteps = (parsed.value as { steps?: unknown } | null)?.steps;
  const steps: CheckedStep[] = [];
  const named: Parameters<typeof checkNames>[0][number][] = [];
  (Array.isArray(rawSteps) ? rawSteps : []).forEach((raw: unknown, index) => {
    const step = checkStep(raw, index, issues);
    if (step && 'failed' in step) named.push({ ...step, number: index + 1 });
    else if (step) {
      const line = parsed.lineOf?.(['steps', index]);
      const checked = { ...step, number: index + 1, path: pathText(['steps', index]), ...(line === undefined ? {} : { line }) };
      steps.push(checked);
      named.push(checked);
    }
  });
  // A step that failed its schema is reported already: the names it uses are still checked, and the one it gives counts for the steps after it.
  for (const problem of checkNames(named)) issues.add(problem.path, problem.message, problem.code, problem.params);
  if (issues.list.length > 0) throw new ScenarioInvalidError(inStepOrder(issues.list));
  return { name: top.data?.name ?? null, steps, movesClock: steps.some((s) => s.verb === 'clock'), ...(parsed.lineOf ? { lineOf: parsed.lineOf } : {}) };
}

/** The problems in the order of their steps (names are checked after the schemas), each step's in the order found. */
const stepOf = (issue: ScenarioIssue) => Number(/^steps\[(\d+)\]/.exec(issue.path)?.[1] ?? -1);
const inStepOrder = (list: ScenarioIssue[]) => list.map((issue, i) => ({ issue, i })).sort((a, b) => stepOf(a.issue) - stepOf(b.issue) || a.i - b.i).map(({ issue }) => issue);

type StepCheck = Pick<CheckedStep, 'verb' | 'args'> | { verb: VerbName; args: Record<string, unknown>; failed: true };

function checkStep(raw: unknown, index: number, issues: Issues): StepCheck | undefined {
  const at: Path = ['steps', index];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || Object.keys(raw).length !== 1) {
    issues.add(at, 'a step is one verb with its arguments, such as {pay: {order: o1}}', 'one_verb');
    return undefined;
  }
  const [verb, args] = Object.entries(raw)[0]!;
  if (!(VERB_NAMES as string[]).includes(verb)) {
    issues.add([...at, verb], `unknown verb ${verb}; the verbs are ${VERB_NAMES.join(', ')}`, 'unknown_verb', { verb, verbs: VERB_NAMES.join(', ') });
    return undefined;
  }
  const schema = verb === 'expect' ? expectSchema(args, [...at, verb], issues) : VERBS[verb as VerbName].args;
  if (!schema) return undefined;
  const result = schema.safeParse(args ?? {}, { reportInput: true });
  if (!result.success) {
    issues.zod([...at, verb], result.error, 'shape' in schema ? Object.keys((schema as z.ZodObject).shape) : []);
    const raw = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
    return { verb: verb as VerbName, args: raw, failed: true };
  }
  return { verb: verb as VerbName, args: result.data as Record<string, unknown> };
}

function expectSchema(args: unknown, at: Path, issues: Issues): z.ZodType | undefined {
  const kind = expectKind(args);
  if (kind === undefined) {
    issues.add(at, 'an expectation is about an order (order), a stock (stock), a webhook event (webhook) or a fault (fault)', 'expect_what');
    return undefined;
  }
  return EXPECT_KINDS[kind].args;
}
