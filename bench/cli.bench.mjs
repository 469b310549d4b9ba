/**
 * CLI start-up, hyperfine-style: wall time of `seller --help` (in English and in Russian) and of
 * `seller cards list --json` (against a running reference server, a seller with 20 cards) against
 * `node -e 0`, N runs of each, interleaved (so drift hits all alike), median. Targets: at most
 * 1.6× `node -e 0`; the Russian help at most 1.15× the English one (it loads its catalogue too). The
 * help runs again with `TZ=Europe/Moscow`, as a Russian seller's machine has it, within the same
 * targets: the time zone's data is loaded only when a time is shown (cli/i18n/format.ts).
 * And the SDK's import time: `import 'service-seller'` (its ES build, as an application loads it)
 * against `node -e 0`.
 * The server runs in this process; the commands are separate processes, as a user runs them.
 */
import path from 'node:path';
import { ADMIN_TOKEN, DIST_SERVER, fmt, log, median, NO_RATE_LIMIT, pick, interleaved, ratioRow, ROOT, tempDir, timedRun } from './lib.mjs';
import { api, newCard, newSeller } from './seed.mjs';

export const name = 'cli';

const RUNS = pick(3, 30);
const WARMUP = pick(1, 3);
const CARDS = 20;

export async function run() {
  const { startServer } = await import(DIST_SERVER);
  const server = await startServer({ port: 0, memory: true, adminToken: ADMIN_TOKEN, rateLimit: NO_RATE_LIMIT });
  const config = tempDir('cli');
  try {
    const seller = await newSeller(server.app);
    const { update } = await newCard(server.app, seller.apiKey);
    const { service, tariff } = (await api(server.app, seller.apiKey, 'GET', '/listings')).items[0];
    for (let i = 1; i < CARDS; i++) await api(server.app, seller.apiKey, 'POST', '/listings', { service, tariff, ...update });

    const env = {
      ...process.env,
      SERVICE_API_KEY: seller.apiKey,
      SERVICE_BASE_URL: server.url,
      SELLER_CONFIG_DIR: config.dir,
      XDG_CONFIG_HOME: config.dir,
      NO_COLOR: '1',
      LC_ALL: '',
      LC_MESSAGES: '',
      SELLER_LANG: '',
      LANG: 'C',
    };
    const ru = { ...env, LANG: 'ru_RU.UTF-8' };
    const moscow = { ...env, TZ: 'Europe/Moscow' };
    const ruMoscow = { ...ru, TZ: 'Europe/Moscow' };
    const sellerJs = path.join(ROOT, 'bin', 'seller.js');
    const commands = {
      node: [process.execPath, ['-e', '0']],
      help: [process.execPath, [sellerJs, '--help']],
      helpRu: [process.execPath, [sellerJs, '--help'], ru],
      helpTz: [process.execPath, [sellerJs, '--help'], moscow],
      helpRuTz: [process.execPath, [sellerJs, '--help'], ruMoscow],
      list: [process.execPath, [sellerJs, 'cards', 'list', '--json']],
      // The SDK as an application imports it: by package name, its ES build (sdk/dist/esm).
      sdk: [process.execPath, ['--input-type=module', '-e', "import { SellerClient } from 'service-seller'; new SellerClient();"]],
    };
    const english = await timedRun(...commands.help, { env, cwd: ROOT });
    const russian = await timedRun(commands.helpRu[0], commands.helpRu[1], { env: ru, cwd: ROOT });
    if (!english.out.includes('Usage: seller') || !russian.out.includes('Использование: seller')) {
      throw new Error(`seller --help did not answer in English and Russian: ${english.out.slice(0, 80)} / ${russian.out.slice(0, 80)}`);
    }
    const listed = await timedRun(...commands.list, { env, cwd: ROOT });
    if (!listed.out.includes(service)) throw new Error(`seller cards list --json printed ${listed.out.slice(0, 200)}`);

    // Rotated each round, so no command always runs right after another; each timed as a whole process.
    const runs = Object.fromEntries(
      Object.entries(commands).map(([name, [command, args, own]]) => [name, async () => (await timedRun(command, args, { env: own ?? env, cwd: ROOT })).ms]),
    );
    const times = await interleaved(runs, WARMUP, RUNS, { timesItself: true });
    const [node, help, helpRu, list, sdk] = [median(times.node), median(times.help), median(times.helpRu), median(times.list), median(times.sdk)];
    const [helpTz, helpRuTz] = [median(times.helpTz), median(times.helpRuTz)];
    log(`  cli: node -e 0 ${fmt.ms(node)}, seller --help ${fmt.ms(help)} (ru ${fmt.ms(helpRu)}; TZ=Europe/Moscow ${fmt.ms(helpTz)}, ru ${fmt.ms(helpRuTz)}), seller cards list --json ${fmt.ms(list)}, import service-seller ${fmt.ms(sdk)} (median of ${RUNS})`);
    return [
      ratioRow('seller --help: wall time', fmt.ms(help), `node -e 0 ${fmt.ms(node)}`, help / node, { atMost: 1.6 }),
      ratioRow('seller --help in Russian: wall time', fmt.ms(helpRu), `node -e 0 ${fmt.ms(node)}`, helpRu / node, { atMost: 1.6 }),
      ratioRow('seller --help in Russian vs in English', fmt.ms(helpRu), `English ${fmt.ms(help)}`, helpRu / help, { atMost: 1.15 }),
      ratioRow('seller --help, TZ=Europe/Moscow: wall time', fmt.ms(helpTz), `node -e 0 ${fmt.ms(node)}`, helpTz / node, { atMost: 1.6 }),
      ratioRow('seller --help in Russian, TZ=Europe/Moscow: wall time', fmt.ms(helpRuTz), `node -e 0 ${fmt.ms(node)}`, helpRuTz / node, { atMost: 1.6 }),
      ratioRow(`seller cards list --json (${CARDS} cards): wall time`, fmt.ms(list), `node -e 0 ${fmt.ms(node)}`, list / node, { atMost: 1.6 }),
      ratioRow("import 'service-seller' (the SDK's entry, ES module): wall time", fmt.ms(sdk), `node -e 0 ${fmt.ms(node)}`, sdk / node, { atMost: 1.6 }),
    ];
  } finally {
    await server.close();
    config.remove();
  }
}
