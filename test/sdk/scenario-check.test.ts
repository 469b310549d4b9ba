/**
 * The scenario format's check (sdk/scenario/check.ts, names.ts, verbs.ts), before anything runs:
 * every problem by its path, and by its line when text is given; names given before they are used,
 * once, to a result of the kind wanted; `${name.field}` the same; durations as the CLI takes them.
 */
import { describe, expect, it } from 'vitest';
import { checkScenario } from '../../sdk/scenario/check.ts';
import { ScenarioInvalidError, type ScenarioIssue } from '../../sdk/scenario/errors.ts';

const CARD = 'service: spotify, tariff: individual, productType: code, deliveryMethod: code, priceRub: 300, slaMinutes: 60, guaranteeDays: 7';

function problems(input: string | object): ScenarioIssue[] {
  try {
    checkScenario(input);
  } catch (error) {
    if (error instanceof ScenarioInvalidError) return error.issues;
    throw error;
  }
  throw new Error('the scenario was accepted');
}

const at = (issues: ScenarioIssue[]) => issues.map((i) => `${i.line ?? '-'} ${i.path}: ${i.message}`);

describe('a valid scenario', () => {
  it('is the steps with their arguments (defaults filled, durations in seconds), numbers and lines, and whether it moves the clock', () => {
    const checked = checkScenario(`name: day\nsteps:\n  - seller: { as: shop }\n  - card: { as: c, seller: shop, ${CARD} }\n  - clock: { advance: 1h30m }\n  - expect: { stock: c, free: 0, within: 2s }\n`);
    expect(checked.name).toBe('day');
    expect(checked.movesClock).toBe(true);
    expect(checked.steps.map((s) => [s.number, s.path, s.line, s.verb])).toEqual([
      [1, 'steps[0]', 3, 'seller'],
      [2, 'steps[1]', 4, 'card'],
      [3, 'steps[2]', 5, 'clock'],
      [4, 'steps[3]', 6, 'expect'],
    ]);
    expect(checked.steps[0]!.args).toEqual({ as: 'shop', admission: 'complete' });
    expect(checked.steps[2]!.args).toEqual({ advance: 5400 });
    expect(checked.steps[3]!.args).toMatchObject({ within: 2 });
  });

  it('takes Russian durations and JSON text, whose lines are named too', () => {
    expect(checkScenario({ steps: [{ clock: { advance: '2ч' } }] }).steps[0]!.args).toEqual({ advance: 7200 });
    const json = '{\n  "steps": [\n    { "seller": { "as": "shop" } },\n    { "pay": { "order": "o1" } }\n  ]\n}\n';
    expect(at(problems(json))).toEqual(['4 steps[1].pay.order: no step before this one is named o1']);
  });

  it('does not move the clock without a clock step', () => {
    expect(checkScenario({ steps: [{ seller: { as: 'shop' } }] }).movesClock).toBe(false);
  });
});

describe('names', () => {
  it('must be given by an earlier step', () => {
    const issues = problems(`steps:\n  - pay: { order: o1 }\n  - seller: { as: shop }\n  - card: { as: c, seller: shop, ${CARD} }\n  - buy: { as: o1, card: c }\n`);
    expect(at(issues)).toEqual(['2 steps[0].pay.order: no step before this one is named o1']);
    expect(issues[0]).toMatchObject({ code: 'unknown_name', params: { name: 'o1' } });
  });

  it('must name a result of the kind the field wants', () => {
    const issues = problems({ steps: [{ seller: { as: 'shop' } }, { buy: { as: 'o1', card: 'shop' } }] });
    expect(at(issues)).toEqual(['- steps[1].buy.card: shop is a seller (steps[0]), not a card']);
    expect(issues[0]).toMatchObject({ code: 'wrong_kind', params: { name: 'shop', kind: 'seller', want: 'card' } });
  });

  it('are given once', () => {
    expect(at(problems({ steps: [{ seller: { as: 'shop' } }, { seller: { as: 'shop' } }] }))).toEqual(['- steps[1].seller.as: the name shop is already given by steps[0]']);
  });

  it('inside texts: ${name.field} with a field the result has; ${run.id} is always there', () => {
    const issues = problems({
      steps: [{ seller: { as: 'shop' } }, { request: { seller: 'shop', title: 'x ${shop.key} ${run.id} ${shop.number} ${o2.id}' } }],
    });
    expect(at(issues)).toEqual([
      '- steps[1].request.title: ${shop.number}: a seller has shop.id, shop.key, shop.keyId',
      '- steps[1].request.title: no step before this one is named o2',
    ]);
  });

  it('given by a step whose arguments are wrong still count, so its users are not reported too; the names it uses are checked', () => {
    const issues = problems({ steps: [{ seller: { as: 'shop', admission: 'maybe' } }, { status: { seller: 'shop', status: 'active' } }] });
    expect(issues.map((i) => i.path)).toEqual(['steps[0].seller.admission']);
  });

  it('of an expectation: an order, a card for stock, a card or an order for a webhook', () => {
    const issues = problems({
      steps: [{ seller: { as: 'shop' } }, { expect: { stock: 'shop', free: 1 } }, { expect: { webhook: 'stock.out', card: 'shop' } }, { expect: { order: 'shop', status: 'paid' } }],
    });
    expect(issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'steps[1].expect.stock: shop is a seller (steps[0]), not a card',
      'steps[2].expect.card: shop is a seller (steps[0]), not a card',
      expect.stringMatching(/^steps\[3\]\.expect\.status: Invalid option: /),
      'steps[3].expect.order: shop is a seller (steps[0]), not an order',
    ]);
  });

  it('of a fault expectation: a fault step\'s name, hits a whole number', () => {
    const ok = checkScenario({ steps: [{ fault: { as: 'f1', op: 'me.get', status: 503, retryAfter: '5s', times: 2 } }, { expect: { fault: 'f1', hits: 2 } }] });
    expect(ok.steps.map((s) => s.args)).toEqual([
      { as: 'f1', op: 'me.get', status: 503, retryAfter: '5s', times: 2 },
      { fault: 'f1', hits: 2 },
    ]);
    const issues = problems({
      steps: [{ seller: { as: 'shop' } }, { fault: { as: 'f1', op: 'me.get', status: 503, retryAfter: 'later' } }, { expect: { fault: 'shop' } }, { expect: { fault: 'f1', hits: -1 } }],
    });
    expect(issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'steps[1].fault.retryAfter: a duration such as 2s, 500ms, 1m; not later',
      'steps[2].expect.fault: shop is a seller (steps[0]), not a fault',
      expect.stringMatching(/^steps\[3\]\.expect\.hits: /),
    ]);
  });
});

describe('the shape', () => {
  it('names every problem, each by its path and line, in the order of the steps', () => {
    const text = [
      'steps:',
      '  - seller: { as: shop, colour: red }',
      '  - teleport: { to: moon }',
      '  - { pay: { order: a }, cancel: { order: a } }',
      '  - clock: { advance: soon }',
      '  - stock: { card: c }',
      '  - expect: { status: paid }',
      '  - hooks: { seller: shop, url: probe, events: [order.sold] }',
      '',
    ].join('\n');
    expect(at(problems(text))).toEqual([
      '2 steps[0].seller.colour: unknown field colour',
      expect.stringMatching(/^3 steps\[1\]\.teleport: unknown verb teleport; the verbs are seller, admission, /),
      '4 steps[2]: a step is one verb with its arguments, such as {pay: {order: o1}}',
      '5 steps[3].clock.advance: not a duration: write it as 90s, 30m, 2h, 1d or 1h30m',
      '6 steps[4].stock: give exactly one of count or items',
      '6 steps[4].stock.card: no step before this one is named c',
      '7 steps[5].expect: an expectation is about an order (order), a stock (stock), a webhook event (webhook) or a fault (fault)',
      expect.stringMatching(/^8 steps\[6\]\.hooks\.events\[0\]: /),
    ]);
  });

  it('names the top level’s problems and every step’s in one pass: a misspelt name hides none of them', () => {
    const text = 'nmae: day\nsteps:\n  - seller: { as: shop, colour: red }\n  - pay: { order: o7 }\n';
    expect(at(problems(text))).toEqual([
      '1 nmae: unknown field nmae',
      '3 steps[0].seller.colour: unknown field colour',
      '4 steps[1].pay.order: no step before this one is named o7',
    ]);
  });

  it('names every problem of a fault: step, by the rules the server keeps (sdk/contract/fault-rules.ts)', () => {
    const text = 'steps:\n  - fault: { op: orders.shipIt, status: 418, latency: soon, every: 1, times: 0 }\n  - fault: { hooks: fail, op: orders.deliver, for: never }\n';
    expect(at(problems(text))).toEqual([
      '2 steps[0].fault.latency: one effect per fault, not status and latency',
      '2 steps[0].fault.op: orders.shipIt is not an operation of the seller API',
      '2 steps[0].fault.status: one of 429, 500, 502, 503',
      '2 steps[0].fault.latency: a duration such as 2s, 500ms, 1m; not soon',
      '2 steps[0].fault.times: a whole number from 1',
      '2 steps[0].fault.every: a whole number from 2',
      '3 steps[1].fault.op: webhook chaos names no operation',
      '3 steps[1].fault.for: a duration such as 2s, 500ms, 1m; not never',
    ]);
  });

  it('an expectation waits at most 10 minutes', () => {
    expect(at(problems({ steps: [{ seller: { as: 'shop' } }, { expect: { webhook: 'order.paid', seller: 'shop', within: '1h' } }] }))).toEqual([
      '- steps[1].expect.within: an expectation waits at most 10m',
    ]);
  });

  it('a rule of the format is data: code rule, its name and values (a fault step\'s problem and field), for a client to word', () => {
    const issues = problems('steps:\n  - fault: { op: orders.deliver, status: 418, retryAfter: 5s }\n  - fault: { op: orders.delivr, status: 503 }\n  - clock: { advance: soon }\n');
    expect(issues.map((i) => [i.path, i.code, i.params])).toEqual([
      ['steps[0].fault.status', 'rule', { rule: 'fault', problem: 'invalid', field: 'status', value: '418' }],
      ['steps[1].fault.op', 'rule', { rule: 'fault', problem: 'unknown_op', field: 'op', value: 'orders.delivr' }],
      ['steps[2].clock.advance', 'rule', { rule: 'duration' }],
    ]);
    const retry = problems('steps:\n  - fault: { op: orders.deliver, retryAfter: 5s, latency: 2s }\n');
    expect(retry.map((i) => [i.path, i.params])).toEqual([['steps[0].fault.retryAfter', { rule: 'fault', problem: 'conflict', field: 'retryAfter' }]]);
  });

  it('a missing field is named at its path, on the line of the arguments it is missing from', () => {
    expect(at(problems('steps:\n  - seller: { as: shop }\n  - card:\n      seller: shop\n      service: spotify\n'))[0]).toBe('4 steps[1].card.tariff: required (string)');
  });

  it('refuses a document that is not a scenario, or not YAML, naming the line', () => {
    expect(at(problems('name: x\n'))).toEqual([expect.stringMatching(/^1 steps: /)]);
    expect(at(problems({ steps: [] }))).toEqual(['- steps: a scenario has at least one step']);
    const broken = problems('steps:\n  - seller: { as: shop\n  - pay: {}\n');
    expect(broken[0]).toMatchObject({ path: '(file)', code: 'not_yaml', line: expect.any(Number) });
    expect(problems('steps:\n  - seller: {as: a}\n    seller: {as: b}\n')[0]).toMatchObject({ code: 'not_yaml', line: 3 });
  });
});
