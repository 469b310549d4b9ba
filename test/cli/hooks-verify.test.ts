/** `seller hooks verify`: the CI check of a recorded delivery, through run() with real files. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signWebhook } from '../../sdk/webhooks/index.ts';
import { bufferIO, run, tempConfigDir } from './helpers.ts';

const SECRET = `whsec_${'Ab12Cd34'.repeat(4)}`;
const OLD_SECRET = `whsec_${'Zz98Yy76'.repeat(4)}`;
const NOW = Date.now();
const EVENT = {
  event: 'order.paid',
  at: new Date(NOW).toISOString(),
  data: { order: 'ord_7Hq2', number: 1001, status: 'awaiting_delivery', slaMinutes: 60 },
  delivery: 'dlv_9Xk3',
  attempt: 2,
};

let dir: ReturnType<typeof tempConfigDir>;
let env: Record<string, string>;
beforeEach(() => {
  dir = tempConfigDir();
  env = { SELLER_CONFIG_DIR: dir.dir };
});
afterEach(() => dir.cleanup());

const file = (name: string, content: string | Buffer) => {
  const path = join(dir.dir, name);
  writeFileSync(path, content);
  return path;
};

/** A signed delivery saved as files: body, headers as lines, secret. */
function recorded(options: { body?: string | object; secret?: string; timestamp?: number } = {}) {
  const signed = signWebhook(options.body ?? EVENT, options.secret ?? SECRET, options.timestamp === undefined ? { now: NOW } : { timestamp: options.timestamp });
  const headerLines = Object.entries(signed.headers).map(([name, value]) => `${name}: ${value}`);
  return {
    signed,
    payload: file('body.json', signed.body),
    headersFile: file('headers.txt', `${headerLines.join('\n')}\n`),
    secretFile: file('webhook.secret', `${SECRET}\n`),
  };
}

const verify = (args: string[], setup: { env?: Record<string, string>; stdin?: string } = {}) =>
  run(['hooks', 'verify', ...args], bufferIO({ env: { ...env, ...setup.env }, ...(setup.stdin === undefined ? {} : { stdin: setup.stdin }) }));

describe('seller hooks verify: a valid delivery', () => {
  it('exits 0 and prints the event kind and delivery id', async () => {
    const r = recorded();
    const result = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', r.secretFile]);
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toBe('valid: order.paid dlv_9Xk3 (attempt 2)\n');
  });

  it('--json prints the event', async () => {
    const r = recorded();
    const result = await run(['--json', 'hooks', 'verify', '--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', r.secretFile], bufferIO({ env }));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toEqual(EVENT);
  });

  it('marks a test event', async () => {
    const r = recorded({ body: { ...EVENT, test: true } });
    const result = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', r.secretFile]);
    expect(result.out).toMatch(/\(attempt 2, test\)/);
  });
});

describe('seller hooks verify: where the secret comes from', () => {
  it('SERVICE_WEBHOOK_SECRET', async () => {
    const r = recorded();
    const result = await verify(['--payload', r.payload, '--headers-file', r.headersFile], { env: { SERVICE_WEBHOOK_SECRET: SECRET } });
    expect(result.code).toBe(0);
  });

  it('--secret-stdin', async () => {
    const r = recorded();
    const result = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-stdin'], { stdin: `${SECRET}\n` });
    expect(result.code).toBe(0);
  });

  it('a secret file with the old and the new secret (rotation): either matches', async () => {
    const r = recorded();
    const both = file('both.secret', `# rotating\n${OLD_SECRET}\n\n${SECRET}\n`);
    const result = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', both]);
    expect(result.code).toBe(0);
  });

  it('--secret-file wins over the environment', async () => {
    const r = recorded();
    const wrong = file('wrong.secret', OLD_SECRET);
    const result = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', wrong], { env: { SERVICE_WEBHOOK_SECRET: SECRET } });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^error: mismatch: /);
  });

  it('no secret at all is a usage error that explains why the server cannot give it', async () => {
    const r = recorded();
    const result = await verify(['--payload', r.payload, '--headers-file', r.headersFile]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/a signing secret is needed: --secret-file FILE, --secret-stdin or SERVICE_WEBHOOK_SECRET/);
    expect(result.err).toMatch(/shows the secret only once/);
  });

  it('an empty secret file is a usage error', async () => {
    const r = recorded();
    const result = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', file('empty.secret', '\n')]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/empty/);
  });

  it('a missing secret file is a usage error', async () => {
    const r = recorded();
    const result = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', join(dir.dir, 'nope')]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/--secret-file: cannot read .*ENOENT/);
  });
});

describe('seller hooks verify: payload and headers', () => {
  it('reads the payload from stdin with --payload -, byte for byte', async () => {
    const r = recorded({ body: `{"event":"order.paid","at":"${EVENT.at}",  "data":{"order":"ord_1","number":1001,"status":"awaiting_delivery","slaMinutes":60},"delivery":"dlv_ü","attempt":1}` });
    const result = await verify(['--payload', '-', '--headers-file', r.headersFile, '--secret-file', r.secretFile], { stdin: r.signed.body });
    // dlv_ü is not a valid delivery id: the signature matched and the body check ran.
    expect(result.err).toMatch(/malformed_body/);
    const plain = recorded();
    const ok = await verify(['--payload', '-', '--headers-file', plain.headersFile, '--secret-file', plain.secretFile], { stdin: plain.signed.body });
    expect(ok.code).toBe(0);
  });

  it('refuses two inputs on stdin', async () => {
    const r = recorded();
    const result = await verify(['--payload', '-', '--headers-file', r.headersFile, '--secret-stdin']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/only one input can come from stdin/);
  });

  it('requires --payload', async () => {
    const r = recorded();
    const result = await verify(['--headers-file', r.headersFile, '--secret-file', r.secretFile]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/--payload FILE is required/);
  });

  it('headers from --header flags', async () => {
    const r = recorded();
    const flags = Object.entries(r.signed.headers).flatMap(([name, value]) => ['--header', `${name.toUpperCase()}: ${value}`]);
    const result = await verify(['--payload', r.payload, '--secret-file', r.secretFile, ...flags]);
    expect(result.code).toBe(0);
  });

  it('headers from --signature and --timestamp (a bare hex digest is accepted)', async () => {
    const r = recorded();
    const signature = r.signed.headers['x-service-signature']!;
    const timestamp = r.signed.headers['x-service-timestamp']!;
    const full = await verify(['--payload', r.payload, '--secret-file', r.secretFile, '--signature', signature, '--timestamp', timestamp]);
    expect(full.code).toBe(0);
    // Without the event/delivery headers the body still names them.
    expect(full.out).toMatch(/order\.paid dlv_9Xk3/);
    const bare = await verify(['--payload', r.payload, '--secret-file', r.secretFile, '--signature', signature.slice('sha256='.length), '--timestamp', timestamp]);
    expect(bare.code).toBe(0);
  });

  it('headers from a JSON object file (as `hooks probe --json` prints them)', async () => {
    const r = recorded();
    const json = file('headers.json', JSON.stringify({ 'content-type': 'application/json', ...r.signed.headers }));
    const result = await verify(['--payload', r.payload, '--headers-file', json, '--secret-file', r.secretFile]);
    expect(result.code).toBe(0);
  });

  it('headers from an HTTP dump with a request line and CRLF endings', async () => {
    const r = recorded();
    const dump = ['POST /hooks HTTP/1.1', 'Host: example.com', ...Object.entries(r.signed.headers).map(([n, v]) => `${n}: ${v}`), ''].join('\r\n');
    const result = await verify(['--payload', r.payload, '--headers-file', file('dump.txt', dump), '--secret-file', r.secretFile]);
    expect(result.code).toBe(0);
  });

  it('flags win over the headers file', async () => {
    const r = recorded();
    const wrong = file('wrong.txt', 'x-service-signature: sha256=00ff\nx-service-timestamp: 1\n');
    const result = await verify([
      '--payload', r.payload,
      '--headers-file', wrong,
      '--header', `x-service-timestamp: ${r.signed.headers['x-service-timestamp']}`,
      '--signature', r.signed.headers['x-service-signature']!,
      '--secret-file', r.secretFile,
    ]);
    expect(result.code).toBe(0);
  });

  it('a header line without a colon is a usage error naming the line', async () => {
    const r = recorded();
    const result = await verify(['--payload', r.payload, '--headers-file', file('bad.txt', 'x-service-timestamp: 1\nnonsense\n'), '--secret-file', r.secretFile]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/line 2: expected "Name: value"/);
  });
});

describe('seller hooks verify: each failure exits 1 with its reason', () => {
  const failing = async (mutate: (r: ReturnType<typeof recorded>) => string[]) => {
    const r = recorded();
    return verify(mutate(r));
  };

  it('missing_header', async () => {
    const result = await failing((r) => ['--payload', r.payload, '--secret-file', r.secretFile, '--timestamp', r.signed.headers['x-service-timestamp']!]);
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toMatch(/^error: missing_header: the x-service-signature header is missing/);
    expect(result.err).toMatch(/hint: give x-service-signature with --header/);
  });

  it('malformed_signature', async () => {
    const result = await failing((r) => ['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', r.secretFile, '--signature', 'md5=abc']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^error: malformed_signature: /);
  });

  it('malformed_timestamp', async () => {
    const result = await failing((r) => ['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', r.secretFile, '--timestamp', '2026-01-01']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^error: malformed_timestamp: /);
  });

  it('mismatch: a re-serialised body', async () => {
    const r = recorded();
    const reserialised = file('pretty.json', JSON.stringify(JSON.parse(r.signed.body), null, 2));
    const result = await verify(['--payload', reserialised, '--headers-file', r.headersFile, '--secret-file', r.secretFile]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^error: mismatch: the signature does not match/);
    expect(result.err).toMatch(/hint: check the secret/);
  });

  it('mismatch: a payload file with an added final line break gets a precise hint', async () => {
    const r = recorded();
    const withNewline = file('nl.json', `${r.signed.body}\n`);
    const result = await verify(['--payload', withNewline, '--headers-file', r.headersFile, '--secret-file', r.secretFile]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^error: mismatch: /);
    expect(result.err).toMatch(/ends with a line break the delivery did not have/);
  });

  it('stale_timestamp, and --now replays an old delivery at its own time', async () => {
    const old = Math.floor(NOW / 1000) - 3600;
    const r = recorded({ timestamp: old });
    const stale = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', r.secretFile]);
    expect(stale.code).toBe(1);
    expect(stale.err).toMatch(/^error: stale_timestamp: the timestamp is 36\d\d s in the past, outside the 300 s tolerance/);
    expect(stale.err).toContain(`--now ${old}`);
    const replayed = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', r.secretFile, '--now', String(old + 10)]);
    expect(replayed.code).toBe(0);
    const iso = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', r.secretFile, '--now', new Date(old * 1000).toISOString()]);
    expect(iso.code).toBe(0);
  });

  it('--json prints a failed verification as a JSON verdict on stdout, exit 1 (issue 37, item 6)', async () => {
    const r = recorded({ timestamp: Math.floor(NOW / 1000) - 3600 });
    const result = await run(['--json', 'hooks', 'verify', '--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', r.secretFile], bufferIO({ env }));
    expect(result.code).toBe(1);
    const verdict = JSON.parse(result.out);
    expect(verdict).toMatchObject({ valid: false, reason: 'stale_timestamp', message: expect.stringContaining('in the past') });
    expect(verdict.skewSeconds).toBeLessThan(-3599);
    const missing = await run(['--json', 'hooks', 'verify', '--payload', r.payload, '--secret-file', r.secretFile], bufferIO({ env }));
    expect(JSON.parse(missing.out)).toMatchObject({ valid: false, reason: 'missing_header', header: 'x-service-signature' });
  });

  it('a --now before 1971 is named as such, in Russian too', async () => {
    const r = recorded();
    const result = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', r.secretFile, '--now', '1794059'], { env: { LANG: 'ru_RU.UTF-8' } });
    expect(result.code).toBe(1);
    expect(result.err).toContain('подсказка: время --now раньше 1971 года');
    expect(result.err).not.toMatch(/[a-z]{4,} [a-z]{4,}/);
  });

  it('in Russian: the first line names the reason code and says what failed in Russian, with no English sentence', async () => {
    const r = recorded();
    const ru = { env: { LANG: 'ru_RU.UTF-8' } };
    const missing = await verify(['--payload', r.payload, '--secret-file', r.secretFile, '--timestamp', r.signed.headers['x-service-timestamp']!], ru);
    expect(missing.code).toBe(1);
    expect(missing.err.split('\n')[0]).toBe('ошибка: missing_header: нет заголовка x-service-signature: передайте заголовки запроса без изменений');
    const malformed = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', r.secretFile, '--signature', 'md5=abc'], ru);
    expect(malformed.err.split('\n')[0]).toBe('ошибка: malformed_signature: заголовок x-service-signature должен быть «sha256=<hex HMAC-SHA256>», как он пришёл');
    const pretty = file('pretty-ru.json', JSON.stringify(JSON.parse(r.signed.body), null, 2));
    const mismatch = await verify(['--payload', pretty, '--headers-file', r.headersFile, '--secret-file', r.secretFile], ru);
    expect(mismatch.err.split('\n')[0]).toMatch(/^ошибка: mismatch: подпись не совпадает: /);
    const old = Math.floor(NOW / 1000) - 3600;
    const stale = recorded({ timestamp: old });
    const late = await verify(['--payload', stale.payload, '--headers-file', stale.headersFile, '--secret-file', stale.secretFile, '--tolerance', '60'], ru);
    expect(late.err.split('\n')[0]).toMatch(/^ошибка: stale_timestamp: метка времени на 36\d\d с в прошлом, вне допуска 60 с /);
    for (const result of [missing, malformed, mismatch, late]) {
      expect(result.code).toBe(1);
      expect(result.err.split('\n')[0]).not.toMatch(/[a-z]{4,} [a-z]{4,}/);
    }
  });

  it('--tolerance widens or narrows the window', async () => {
    const r = recorded({ timestamp: Math.floor(NOW / 1000) - 100 });
    const narrow = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', r.secretFile, '--tolerance', '60']);
    expect(narrow.err).toMatch(/stale_timestamp/);
    const wide = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', r.secretFile, '--tolerance', '600']);
    expect(wide.code).toBe(0);
    const bad = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', r.secretFile, '--tolerance', '-1']);
    expect(bad.code).toBe(2);
  });

  it('malformed_body: signed, but not a webhook event', async () => {
    const r = recorded({ body: 'not json at all' });
    const result = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', r.secretFile]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^error: malformed_body: /);
  });

  it('an unparseable --now is a usage error', async () => {
    const r = recorded();
    const result = await verify(['--payload', r.payload, '--headers-file', r.headersFile, '--secret-file', r.secretFile, '--now', 'yesterday']);
    expect(result.code).toBe(2);
  });
});
