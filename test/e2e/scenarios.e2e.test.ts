/**
 * Scenario files (issue 27, section 1) through `seller sandbox run` and the SDK's `runScenario`,
 * against a real seller-server: every example runs to exit 0; a broken expectation exits 1 naming
 * its step, line, what was expected and what was found, and the steps after it do not run; a
 * malformed file exits 2 naming every bad path with its line and makes nothing; the SDK runner
 * agrees (text and object); a second run that moves the clock is refused while one is running; a
 * `fault:` step adds its fault for the named seller and the run clears it at its end.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RejectedError } from '../../sdk/errors.ts';
import { SandboxClient } from '../../sdk/sandbox.ts';
import { runScenario, ScenarioFailedError, ScenarioInvalidError, type ScenarioResult } from '../../sdk/scenario/index.ts';
import { ensureBuilt, ROOT, runSeller, spawnSeller } from '../helpers/cli.ts';
import { NO_RATE_LIMIT } from '../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

const EXAMPLES = join(ROOT, 'examples/scenarios');
const examples = readdirSync(EXAMPLES).filter((f) => /\.(ya?ml|json)$/.test(f)).sort();

let server: TestServer;
let env: Record<string, string>;

beforeAll(async () => {
  await ensureBuilt();
  server = await startTestServer({ rateLimit: NO_RATE_LIMIT });
  env = { SERVICE_BASE_URL: server.url, SERVICE_ADMIN_TOKEN: server.adminToken };
}, 180_000);

afterAll(async () => {
  const closing = server?.close();
  server?.app.server.closeAllConnections();
  await closing;
});

const sellerCount = () => Object.keys(server.app.service.store.shared.sellers).length;
const sdkOptions = () => ({ baseUrl: server.url, adminToken: server.adminToken, strict: true });

/** What two runs of one scenario share: the kinds, names and statuses made, and the events' kinds per seller name. */
const shape = (r: ScenarioResult) => ({
  name: r.name,
  stepsRun: r.stepsRun,
  made: r.made.map((m) => ({ kind: m.kind, name: m.name, ...(m.kind === 'order' ? { status: m.status } : {}) })),
  events: r.events.map((e) => `${e.seller} ${e.kind}`).sort(),
});

const BROKEN = `name: a broken expectation
steps:
  - seller: { as: shop }
  - card: { as: codes, seller: shop, service: spotify, tariff: individual, productType: code,
            deliveryMethod: code, priceRub: 300, slaMinutes: 60, guaranteeDays: 7, active: true }
  - buy: { as: o1, card: codes }
  - pay: { order: o1 }
  - expect: { order: o1, status: delivered }
  - seller: { as: never }
`;

const MALFORMED = `name: every kind of mistake
steps:
  - seller: { as: shop }
  - card: { as: spot, seller: shop, service: spotify, tariff: individual, productType: code,
            deliveryMethod: code, priceRub: 300, slaMinutes: 60, guaranteeDays: 7 }
  - pay: { order: o7 }
  - buy: { as: o1, card: shop }
  - clock: { advance: soon }
  - deliver: { order: o1, colour: blue }
  - teleport: { order: o1 }
  - dispute: { order: o1, text: "about \${o9.id}" }
  - buy: { as: o1, card: spot }
`;

/** The problems of MALFORMED, as `line: path` (the messages are checked apart). */
const MALFORMED_PATHS = [
  '6: steps[2].pay.order',
  '7: steps[3].buy.card',
  '8: steps[4].clock.advance',
  '9: steps[5].deliver.colour',
  '10: steps[6].teleport',
  '11: steps[7].dispute.text',
  '12: steps[8].buy.as',
];

describe('seller sandbox run', () => {
  it.each(examples)('runs examples/scenarios/%s to exit 0, with a table of what it made', async (file) => {
    const run = await runSeller(['sandbox', 'run', join(EXAMPLES, file)], { env, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^WHAT\tNAME\tID\tDETAILS\n/);
    expect(run.stdout).toMatch(/^seller\t\w+\tsel_\w+\tkey service_\w+$/m);
    expect(run.stdout).toMatch(/^order\to1\tord_\w+\tcard \w+, /m);
    expect(run.stderr).toMatch(/steps ran as written/);
  }, 90_000);

  it('prints one JSON document with --json: each named result with its ids (a seller with its key) and the events logged', async () => {
    const run = await runSeller(['sandbox', 'run', join(EXAMPLES, 'dispute-resolved.yaml'), '--json'], { env, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as ScenarioResult;
    expect(doc.results.shop).toMatchObject({ kind: 'seller', id: expect.stringMatching(/^sel_/), keyId: expect.stringMatching(/^key_/), key: expect.stringMatching(/^service_/) });
    expect(doc.results.spot).toMatchObject({ kind: 'card', number: expect.any(Number), seller: 'shop' });
    expect(doc.results.o1).toMatchObject({ kind: 'order', id: expect.stringMatching(/^ord_/), status: 'completed' });
    const paid = doc.events.find((e) => e.kind === 'order.paid');
    expect(paid).toMatchObject({ seller: 'shop', data: { order: doc.results.o1!.kind === 'order' ? doc.results.o1!.id : '' } });
    expect(paid!.deliveries[0]).toMatchObject({ attempts: 1, lastStatus: 204, deliveredAt: expect.any(String) });
  }, 90_000);

  it('runs again with new sellers: nothing collides with an earlier run', async () => {
    const file = join(EXAMPLES, 'codes-until-stock-out.yaml');
    const first = JSON.parse((await runSeller(['sandbox', 'run', file, '--json'], { env, timeoutMs: 60_000 })).stdout) as ScenarioResult;
    const second = JSON.parse((await runSeller(['sandbox', 'run', file, '--json'], { env, timeoutMs: 60_000 })).stdout) as ScenarioResult;
    expect(second.stepsRun).toBe(first.stepsRun);
    expect(second.results.shop).not.toEqual(first.results.shop);
  }, 120_000);

  it('ends at a broken expectation with exit 1, naming the step, its line, what was expected and what was found; later steps do not run', async () => {
    const before = sellerCount();
    const run = await runSeller(['sandbox', 'run', '-'], { env, input: BROKEN, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('step 5 (steps[4], line 8, expect): expected order o1 status delivered, found status awaiting_delivery');
    expect(run.stderr).toMatch(/the steps after it did not run/);
    expect(run.stdout).toMatch(/^order\to1\tord_\w+\t/m);
    expect(sellerCount()).toBe(before + 1); // `never` was not made

    const json = await runSeller(['sandbox', 'run', '-', '--json'], { env, input: BROKEN, timeoutMs: 60_000 });
    expect(json.code).toBe(1);
    const doc = JSON.parse(json.stdout) as ScenarioResult & { failure: Record<string, unknown> };
    expect(doc.stepsRun).toBe(4);
    expect(doc.results.never).toBeUndefined();
    expect(doc.failure).toMatchObject({
      step: { number: 5, path: 'steps[4]', line: 8, verb: 'expect' },
      kind: 'expectation',
      expected: 'order o1 status delivered',
      subject: { kind: 'order', name: 'o1', id: doc.results.o1!.kind === 'order' ? doc.results.o1!.id : '' },
      checks: [{ field: 'status', expected: 'delivered', found: 'awaiting_delivery' }],
    });
  }, 90_000);

  it('refuses a malformed file with exit 2, naming every bad path with its line, and makes nothing', async () => {
    const before = sellerCount();
    const run = await runSeller(['sandbox', 'run', '-'], { env, input: MALFORMED });
    expect(run.code, run.stderr).toBe(2);
    const named = [...run.stderr.matchAll(/^\(stdin\):(\d+): (\S+): /gm)].map((m) => `${m[1]}: ${m[2]}`);
    expect(named).toEqual(MALFORMED_PATHS);
    expect(run.stderr).toContain('(stdin):6: steps[2].pay.order: no step before this one is named o7');
    expect(run.stderr).toContain('(stdin):7: steps[3].buy.card: shop is a seller, not a card');
    expect(run.stderr).toContain('(stdin):10: steps[6].teleport: unknown verb teleport');
    expect(run.stderr).toContain('(stdin):11: steps[7].dispute.text: no step before this one is named o9');
    expect(run.stderr).toContain('(stdin):12: steps[8].buy.as: the name o1 is already given by step 4');
    expect(run.stderr).toMatch(/not a valid scenario: 7 problems/);
    expect(sellerCount()).toBe(before);
  });

  it('says the problems and a failed expectation in Russian under a Russian locale, with the same paths, lines and exit codes', async () => {
    const run = await runSeller(['sandbox', 'run', '-'], { env: { ...env, LANG: 'ru_RU.UTF-8' }, input: MALFORMED });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('(stdin):6: steps[2].pay.order: ни один шаг до этого не назван o7');
    expect(run.stderr).toContain('(stdin):7: steps[3].buy.card: shop — это продавец, а здесь нужно: карточка');
    const broken = await runSeller(['sandbox', 'run', '-'], { env: { ...env, LANG: 'ru_RU.UTF-8' }, input: BROKEN, timeoutMs: 60_000 });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('шаг 5 (steps[4], строка 8, expect): ожидалось: заказ o1 — status delivered; на деле: status awaiting_delivery');
  }, 60_000);
});

describe('the READMEs', () => {
  it.each(['README.md', 'README.ru.md'])('%s shows a scenario that runs as written', async (file) => {
    const block = /```yaml\n(name: [^\n]*\nsteps:[\s\S]*?)```/.exec(readFileSync(join(ROOT, file), 'utf8'))?.[1];
    expect(block, `${file} has no scenario block`).toBeDefined();
    const result = await runScenario(block!, sdkOptions());
    expect(result.results.o1).toMatchObject({ kind: 'order', status: 'disputed' });
  }, 60_000);
});

describe('runScenario (the SDK) agrees with the CLI', () => {
  it('runs an example from its text and from the object, with the results the CLI reports', async () => {
    const text = readFileSync(join(EXAMPLES, 'note-withheld-for-contacts.yaml'), 'utf8');
    const cli = JSON.parse((await runSeller(['sandbox', 'run', '-', '--json'], { env, input: text, timeoutMs: 60_000 })).stdout) as ScenarioResult;
    const fromText = await runScenario(text, sdkOptions());
    const fromObject = await runScenario(parse(text) as object, sdkOptions());
    expect(shape(fromText)).toEqual(shape(cli));
    expect(shape(fromObject)).toEqual(shape(cli));
    expect(fromText.results.shop).not.toEqual(fromObject.results.shop);
  }, 90_000);

  it('refuses the malformed scenario naming the same paths: with lines given text, by path given the object; nothing made', async () => {
    const before = sellerCount();
    const fromText = await runScenario(MALFORMED, sdkOptions()).catch((e: unknown) => e);
    expect(fromText).toBeInstanceOf(ScenarioInvalidError);
    expect((fromText as ScenarioInvalidError).issues.map((i) => `${i.line}: ${i.path}`)).toEqual(MALFORMED_PATHS);
    const fromObject = await runScenario(parse(MALFORMED) as object, sdkOptions()).catch((e: unknown) => e);
    expect(fromObject).toBeInstanceOf(ScenarioInvalidError);
    const issues = (fromObject as ScenarioInvalidError).issues;
    expect(issues.map((i) => i.path)).toEqual(MALFORMED_PATHS.map((p) => p.replace(/^\d+: /, '')));
    expect(issues.every((i) => i.line === undefined)).toBe(true);
    expect(sellerCount()).toBe(before);
  });

  it('ends at the broken expectation with the same step, line and finding, and what was made until then', async () => {
    const failed = await runScenario(BROKEN, sdkOptions()).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ScenarioFailedError);
    const error = failed as ScenarioFailedError;
    expect(error.step).toEqual({ number: 5, path: 'steps[4]', line: 8, verb: 'expect' });
    expect(error.failure).toMatchObject({ kind: 'expectation', expected: 'order o1 status delivered', found: expect.stringMatching(/status awaiting_delivery$/) });
    expect(Object.keys(error.result.results)).toEqual(['shop', 'codes', 'o1']);
  });
});

describe('the clock is the server’s', () => {
  const MOVES_CLOCK = `name: moves the clock
steps:
  - seller: { as: shop }
  - clock: { advance: 1m }
  - expect: { webhook: order.paid, seller: shop, count: 0 }
`;

  it('refuses a second run that moves the clock while one is running, and every other move of the clock unless forced; a run that does not move it goes on; after the first ends, the second runs', async () => {
    // The first run is held inside its clock step (its advance waits for the test), holding the lease.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inClockStep!: () => void;
    const reached = new Promise<void>((resolve) => (inClockStep = resolve));
    const heldFetch: typeof fetch = async (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/sandbox/v1/clock/advance')) {
        inClockStep();
        await gate;
      }
      return fetch(input, init);
    };
    const first = runScenario(MOVES_CLOCK, { ...sdkOptions(), fetch: heldFetch, holder: 'the first run' });
    await reached;

    const before = sellerCount();
    const second = await runSeller(['sandbox', 'run', '-'], { env, input: MOVES_CLOCK });
    expect(second.code, second.stderr).toBe(1);
    expect(second.stderr).toMatch(/another scenario run that moves the clock is running on this server/);
    expect(second.stderr).toMatch(/the first run, lease until/);
    const sdkSecond = await runScenario(MOVES_CLOCK, sdkOptions()).catch((e: unknown) => e);
    expect(sdkSecond).toBeInstanceOf(RejectedError);
    expect((sdkSecond as RejectedError).refusal.kind).toBe('clock_leased');
    expect(sellerCount()).toBe(before);

    // Every other move of the clock is refused while the run holds it: the CLI, the SDK; --force goes.
    const clockBefore = (await new SandboxClient({ adminToken: server.adminToken, baseUrl: server.url }).clock()).now;
    const shown = await runSeller(['sandbox', 'clock'], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toMatch(/the clock is leased by the first run until \S+: other moves are refused without --force/);
    const byHand = await runSeller(['sandbox', 'clock', 'advance', '1h'], { env });
    expect(byHand.code).toBe(1);
    expect(byHand.stderr).toMatch(/the clock is leased: the first run is running on this server and holds it until \S+/);
    expect(byHand.stderr).toContain('--force');
    const byHandRu = await runSeller(['sandbox', 'clock', 'advance', '1h'], { env: { ...env, LANG: 'ru_RU.UTF-8' } });
    expect(byHandRu.code).toBe(1);
    expect(byHandRu.stderr).toContain('часы заняты: на этом сервере идёт the first run');
    const sb = new SandboxClient({ adminToken: server.adminToken, baseUrl: server.url });
    const bySdk = await sb.advanceClock({ seconds: 3600 }).catch((e: unknown) => e);
    expect(bySdk).toBeInstanceOf(RejectedError);
    expect((bySdk as RejectedError).status).toBe(409);
    expect((bySdk as RejectedError).refusal).toMatchObject({ kind: 'clock_leased', holder: 'the first run', until: expect.any(String) });
    expect(Date.parse((await sb.clock()).now) - Date.parse(clockBefore)).toBeLessThan(3_600_000);
    const forced = await runSeller(['sandbox', 'clock', 'advance', '1s', '--force'], { env });
    expect(forced.code, forced.stderr).toBe(0);

    const still = await runSeller(['sandbox', 'run', '-'], { env, input: BROKEN.replace('status: delivered', 'status: awaiting_delivery') });
    expect(still.code, still.stderr).toBe(0);

    release();
    expect((await first).stepsRun).toBe(3);
    const after = await runSeller(['sandbox', 'run', '-'], { env, input: MOVES_CLOCK });
    expect(after.code, after.stderr).toBe(0);
  }, 90_000);
});

describe('the fault: step', () => {
  it('adds the fault for the named seller; the runner retries through it, and the run clears its faults at the end', async () => {
    const result = await runScenario(readFileSync(join(EXAMPLES, 'deliver-through-503s.yaml'), 'utf8'), sdkOptions());
    const fault = result.made.find((m) => m.kind === 'fault');
    expect(fault).toMatchObject({ kind: 'fault', name: 'f1', id: expect.stringMatching(/^flt_/), seller: 'shop', what: 'orders.deliver 503', hits: 2 });
    expect(result.results.o1).toMatchObject({ status: 'delivered' });
    const sb = new SandboxClient({ adminToken: server.adminToken, baseUrl: server.url });
    expect((await sb.listFaults()).items.filter((f) => f.endedAt === null).map((f) => f.id)).not.toContain((fault as { id: string }).id);
  }, 60_000);

  it('expect: { fault, hits } fails naming the hits found; the run table shows each fault\'s hits', async () => {
    const text = readFileSync(join(EXAMPLES, 'deliver-through-503s.yaml'), 'utf8');
    const ok = await runSeller(['sandbox', 'run', '-'], { env, input: text });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^fault\tf1\tflt_\w+\torders\.deliver 503 for shop, 2 hits \(cleared when the run ends\)$/m);
    const wrong = await runSeller(['sandbox', 'run', '-'], { env, input: text.replace('hits: 2 }', 'hits: 3 }') });
    expect(wrong.code, wrong.stderr).toBe(1);
    expect(wrong.stderr).toContain('step 8 (steps[7], line 14, expect): expected fault f1 hits 3, found hits 2');
    const ru = await runSeller(['sandbox', 'run', '-'], { env: { ...env, LANG: 'ru_RU.UTF-8' }, input: text.replace('hits: 2 }', 'hits: 3 }') });
    expect(ru.code).toBe(1);
    expect(ru.stderr).toContain('ожидалось: сбой f1 — hits 3; на деле: hits 2');
  }, 60_000);

  it('is checked before the run by the flags’ own rules, named by path and line', async () => {
    const before = sellerCount();
    const text = 'steps:\n  - seller: { as: shop }\n  - fault: { seller: shop, op: orders.shipIt, status: 503 }\n  - fault: { op: orders.deliver, status: 418 }\n  - fault: { seller: ghost, op: "*", drop-after: true, every: 1 }\n';
    const run = await runSeller(['sandbox', 'run', '-'], { env, input: text });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('(stdin):3: steps[1].fault.op: orders.shipIt is not an operation of the seller API');
    expect(run.stderr).toContain('(stdin):4: steps[2].fault.status: one of 429, 500, 502, 503');
    expect(run.stderr).toContain('(stdin):5: steps[3].fault.every: a whole number from 2');
    expect(run.stderr).toContain('(stdin):5: steps[3].fault.seller: no step before this one is named ghost');
    expect(sellerCount()).toBe(before);
  });

  it('a misspelt top-level key hides no step problem, and a fault: step names every problem it has (CLI and SDK)', async () => {
    const before = sellerCount();
    const text = 'nmae: two kinds of mistake\nsteps:\n  - seller: { as: shop }\n  - fault: { seller: shop, op: orders.shipIt, status: 418, every: 1 }\n  - pay: { order: o7 }\n';
    const wanted = [
      '1: nmae',
      '4: steps[1].fault.op',
      '4: steps[1].fault.status',
      '4: steps[1].fault.every',
      '5: steps[2].pay.order',
    ];
    const run = await runSeller(['sandbox', 'run', '-'], { env, input: text });
    expect(run.code, run.stderr).toBe(2);
    expect([...run.stderr.matchAll(/^\(stdin\):(\d+): (\S+): /gm)].map((m) => `${m[1]}: ${m[2]}`)).toEqual(wanted);
    expect(run.stderr).toMatch(/not a valid scenario: 5 problems/);
    const sdk = await runScenario(text, sdkOptions()).catch((e: unknown) => e);
    expect(sdk).toBeInstanceOf(ScenarioInvalidError);
    expect((sdk as ScenarioInvalidError).issues.map((i) => `${i.line}: ${i.path}`)).toEqual(wanted);
    expect(sellerCount()).toBe(before);
  });
});

describe('the runner reads past its own faults', () => {
  // The seller's every call fails every second time, then always: the expectations and the end-of-run
  // reading still read, and the one act after the `every: 2` fault is its first matching call.
  const THROUGH_FAULTS = `name: the runner reads past its own faults
steps:
  - seller: { as: shop }
  - card: { as: acc, seller: shop, service: music-premium, tariff: individual, productType: account,
            deliveryMethod: credentials, priceRub: 199, slaMinutes: 60, guaranteeDays: 7, active: true }
  - stock: { card: acc, count: 2 }
  - buy: { as: o1, card: acc }
  - pay: { order: o1 }
  - fault: { seller: shop, op: "*", status: 503, every: 2 }
  - expect: { order: o1, status: awaiting_delivery, messages: 0 }
  - expect: { stock: acc, free: 2, issued: 0 }
  - deliver: { order: o1, nextChargeDay: 2027-03-01, note: "Sign in with the login and password in the vault" }
  - fault: { seller: shop, op: "*", status: 503 }
  - expect: { order: o1, status: delivered }
  - expect: { stock: acc, free: 2 }
`;

  it('runScenario: expectations and the end-of-run reading are admin reads, which no fault refuses or counts', async () => {
    const calls: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = new URL(String(input instanceof Request ? input.url : input));
      if (url.pathname.startsWith('/api/')) calls.push(`${init?.method ?? 'GET'} ${url.pathname.replace(/\/(\d+|ord_\w+)(?=\/|$)/g, '/:id')} ${response.status}`);
      return response;
    };
    const result = await runScenario(THROUGH_FAULTS, { ...sdkOptions(), fetch: recording });
    expect(result.stepsRun).toBe(12);
    expect(result.results.o1).toMatchObject({ kind: 'order', status: 'delivered' });
    // The seller's calls are the acts' alone: no reading, and the delivery was the `every: 2` fault's first call (not hit).
    expect(calls.filter((c) => c.startsWith('GET'))).toEqual([]);
    expect(calls.at(-1)).toBe('POST /api/v1/orders/:id/deliver 200');
    expect(calls.filter((c) => c.endsWith(' 503'))).toEqual([]);
  }, 60_000);

  it('seller sandbox run: the same scenario runs to exit 0 with the order delivered', async () => {
    const run = await runSeller(['sandbox', 'run', '-', '--json'], { env, input: THROUGH_FAULTS, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as ScenarioResult;
    expect(doc.results.o1).toMatchObject({ kind: 'order', status: 'delivered' });
  }, 90_000);
});

describe('an interrupted run leaves the server clean', () => {
  // Held in its last step (an expectation that waits up to 10 minutes), with a fault for every seller in force and the clock lease held.
  const HELD = `name: held in its last step
steps:
  - seller: { as: shop }
  - clock: { advance: 1m }
  - fault: { op: "*", status: 503 }
  - fault: { seller: shop, op: orders.deliver, drop: true }
  - expect: { webhook: order.paid, seller: shop, count: 1, within: 10m }
`;
  const sb = () => new SandboxClient({ adminToken: server.adminToken, baseUrl: server.url });
  /** The run's two faults, once both are in force (each carries the run's lease). */
  const runFaults = () =>
    waitFor('the run’s two faults', async () => {
      const items = (await sb().listFaults()).items.filter((f) => f.runLease !== undefined && f.endedAt === null);
      return items.length === 2 && items;
    }, { ms: 30_000 });
  /** The clock is free: a lease another holder takes at once (the run's would refuse it). */
  const clockIsFree = async () => {
    const lease = await sb().leaseClock({ holder: 'the test', ttlSeconds: 60 });
    await sb().releaseClock(lease.id);
    return true;
  };
  const exited = (child: ReturnType<typeof spawnSeller>) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })));
  };

  it('Ctrl-C (SIGINT) stops seller sandbox run with exit 130, its faults cleared (the every-seller one too) and the clock given back', async () => {
    const child = spawnSeller(['sandbox', 'run', '-'], { env });
    const exit = exited(child);
    child.stdin.end(HELD);
    const faults = await runFaults();
    expect(new Set(faults.map((f) => f.runLease)).size).toBe(1);
    expect(faults.map((f) => f.sellerId === undefined)).toEqual([true, false]);
    child.kill('SIGINT');
    const { code, stderr } = await exit;
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/interrupted: the run stopped; its faults are cleared and the clock is given back/);
    expect((await sb().listFaults()).items.filter((f) => f.endedAt === null)).toEqual([]); // ended: kept an hour, listed as ended
    expect(await clockIsFree()).toBe(true);
  }, 60_000);

  it('runScenario with an aborted signal rejects with its reason after clearing the run’s faults and releasing the clock', async () => {
    const stop = new AbortController();
    const running = runScenario(HELD, { ...sdkOptions(), signal: stop.signal }).catch((e: unknown) => e);
    await runFaults();
    stop.abort();
    const error = await running;
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    expect((await sb().listFaults()).items.filter((f) => f.endedAt === null)).toEqual([]); // ended: kept an hour, listed as ended
    expect(await clockIsFree()).toBe(true);
  }, 60_000);

  it('a run killed outright (SIGKILL) stops renewing its run lease: its faults lapse with it (--lease 2s), and so does the clock lease', async () => {
    const child = spawnSeller(['sandbox', 'run', '-', '--lease', '2s'], { env });
    const exit = exited(child);
    child.stdin.end(HELD);
    const ids = (await runFaults()).map((f) => f.id);
    child.kill('SIGKILL');
    expect((await exit).signal).toBe('SIGKILL');
    await waitFor('the killed run’s faults to lapse', async () => (await sb().listFaults()).items.every((f) => !ids.includes(f.id) || f.endedAt !== null), { ms: 15_000 });
    await waitFor('the killed run’s clock lease to lapse', () => clockIsFree().catch(() => false), { ms: 15_000 });
  }, 60_000);
});
