/**
 * The scenario runner's own cost (issue 27): a 50-step scenario (a seller, a card, then twelve
 * orders each bought, paid, delivered and expected delivered) run by `runScenario` from its YAML
 * text, against the same steps written as a plain SDK script (SandboxClient and SellerClient, the
 * same calls in the same order), on the same reference server (a child process), interleaved,
 * alternating which goes first, median. The runner adds the check of the file (YAML, zod, names),
 * its bookkeeping and the end of run (the seller's events, its orders' last status). Target: at
 * most 1.2×.
 */
import { fmt, interleaved, log, median, pick, ratioRow, startChild } from './lib.mjs';

export const name = 'scenario';

const ORDERS = 12;
const RUNS = pick(3, 25);
const WARMUP = pick(1, 3);
const DIST_SDK = new URL('../sdk/dist/esm/index.js', import.meta.url).href;
const DIST_SCENARIO = new URL('../sdk/dist/esm/scenario/index.js', import.meta.url).href;

const CARD = {
  service: 'music-premium',
  tariff: 'individual',
  productType: 'subscription',
  deliveryMethod: 'own_account',
  priceRub: 299,
  slaMinutes: 60,
  guaranteeDays: 30,
};
const DELIVERY = { nextChargeDay: '2027-01-15', note: 'Enjoy: sign in with your own account' };

/** The scenario's text: 2 + 4 × ORDERS = 50 steps. */
function scenarioText() {
  const lines = [
    'name: fifty steps',
    'steps:',
    '  - seller: { as: shop }',
    `  - card: { as: spot, seller: shop, ${Object.entries(CARD).map(([k, v]) => `${k}: ${v}`).join(', ')}, active: true }`,
  ];
  for (let i = 1; i <= ORDERS; i++) {
    lines.push(
      `  - buy: { as: o${i}, card: spot }`,
      `  - pay: { order: o${i} }`,
      `  - deliver: { order: o${i}, nextChargeDay: ${DELIVERY.nextChargeDay}, note: "${DELIVERY.note}" }`,
      `  - expect: { order: o${i}, status: delivered }`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The same steps as a plain SDK script. */
async function script({ SandboxClient, SellerClient }, options) {
  const sb = new SandboxClient(options);
  const seller = await sb.createSeller({ admission: 'complete' });
  const client = new SellerClient({ baseUrl: options.baseUrl, apiKey: seller.apiKey });
  const { number } = await client.listings.create(CARD);
  await client.listings.setState(number, { active: true });
  for (let i = 1; i <= ORDERS; i++) {
    const order = await sb.createOrder({ number });
    await sb.pay(order.id);
    await client.orders.deliver(order.id, DELIVERY);
    const read = await client.orders.get(order.id);
    if (read.status !== 'delivered') throw new Error(`order ${order.id} is ${read.status}`);
  }
}

export async function run() {
  const sdk = await import(DIST_SDK);
  const { runScenario } = await import(DIST_SCENARIO);
  const server = await startChild({ mode: 'api' });
  try {
    const options = { baseUrl: server.url, adminToken: server.adminToken };
    const text = scenarioText();
    const steps = text.split('\n').filter((l) => l.startsWith('  - ')).length;
    if (steps !== 50) throw new Error(`the scenario has ${steps} steps`);
    const calls = {
      script: () => script(sdk, options),
      runner: async () => {
        const result = await runScenario(text, options);
        if (result.stepsRun !== 50) throw new Error(`the run stopped after ${result.stepsRun} steps`);
      },
    };
    const times = await interleaved(calls, WARMUP, RUNS);
    const [plain, runner] = [median(times.script), median(times.runner)];
    log(`  scenario: SDK script ${fmt.ms(plain)}, runScenario ${fmt.ms(runner)} (median of ${RUNS})`);
    return [ratioRow('runScenario, 50 steps (12 orders bought, paid, delivered, expected)', fmt.ms(runner), `SDK script ${fmt.ms(plain)}`, runner / plain, { atMost: 1.2 })];
  } finally {
    await server.stop();
  }
}
