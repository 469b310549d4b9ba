/**
 * The CLI as a seller meets it: the common mistakes (no login, a wrong address, a revoked key, a
 * missing flag without a terminal, a refusal, a typo in a noun or verb) each print
 * `error: <code>: <detail>` with a hint and the right exit code; and the help texts say what exists.
 * In-process against a real server on 127.0.0.1:0.
 */
import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from '../../sdk/errors.ts';
import { describeError } from '../../cli/lib/errors.ts';
import { NOUNS } from '../../cli/nouns.ts';
import { apiError, bufferIO, run, useCliServer } from './helpers.ts';

const ADDRESS = /check the service address \(--base-url or SERVICE_BASE_URL\)/;

describe('answers that are not from the Seller API', () => {
  it('a 404 web page is a wrong address, not a missing record', () => {
    const report = describeError(apiError(404, '<html>Not Found</html>'));
    expect(report.exitCode).toBe(1);
    expect(report.lines[0]).toBe('error: not_found: HTTP 404 answer that is not from the Seller API');
    expect(report.lines[1]).toMatch(ADDRESS);
    expect(report.lines.join('\n')).not.toContain('id or slug');
  });

  it('a 502 page from a gateway says so and suggests trying again', () => {
    const report = describeError(apiError(502, '<html>Bad Gateway</html>'));
    expect(report.lines[0]).toMatch(/^error: internal: HTTP 502 answer that is not from the Seller API \(a proxy or gateway failing\?\)$/);
    expect(report.lines[1]).toMatch(/^try again later; if it persists, check the service address/);
  });

  it('a 2xx that is not JSON points at the address; a JSON one off the contract does not', () => {
    const page = new ResponseValidationError({ status: 200, body: '<html></html>', issues: [{ path: [], message: 'the answer is not JSON' }] });
    expect(describeError(page).lines[1]).toMatch(ADDRESS);
    const drift = new ResponseValidationError({ status: 200, body: { sellerId: 1 }, issues: [{ path: ['sellerId'], message: 'expected string' }] });
    expect(describeError(drift).lines[0]).toMatch(/^error: invalid_response: the service's answer could not be understood \(at sellerId\)/);
  });

  it('the API’s own errors keep their code, their data said in words, and their hint', () => {
    const report = describeError(apiError(404, { error: 'not_found', detail: { message: 'no card 9', record: 'card', id: '9' } }));
    // A card is named by its number, never "a slug" (issue 37): the hint is the record's own.
    expect(report.lines).toEqual(['error: not_found: no card 9, or it is not yours', 'check the card number: `seller cards list` lists yours']);
    // An older service's sentence is read without failing: the code's own words.
    const older = describeError(apiError(404, { error: 'not_found', detail: 'no card 9' }));
    expect(older.lines[0]).toBe('error: not_found: no such record (or it is not yours)');
    const throttled = describeError(apiError(429, 'slow down', { 'retry-after': '3' }));
    expect(throttled.lines).toEqual(['error: rate: too many requests', 'retry in 3 s']);
  });
});

describe('common mistakes against a real server', () => {
  const world = useCliServer();
  const { cli } = world;

  it('no login: no_key, exit 4, says to log in', async () => {
    const { code, err } = await cli(['whoami'], { SERVICE_API_KEY: '' });
    expect(code).toBe(4);
    expect(err).toMatch(/^error: no_key: no API key for profile "default"\nrun `seller login`, or set SERVICE_API_KEY\n$/);
  });

  it('a base URL with a path the API does not have: exit 1, the hint names the address', async () => {
    const { code, err } = await cli(['--base-url', `${world.server.url}/docs`, 'whoami']);
    expect(code).toBe(1);
    expect(err).toMatch(/^error: not_found: the service has no path GET \/docs\/api\/v1\/me\nno such API path; check the service address/);
  });

  it('nothing listening: connection, exit 1', async () => {
    const { code, err } = await cli(['--base-url', 'http://127.0.0.1:1', 'whoami']);
    expect(code).toBe(1);
    // After the retries, how many tries over how long (issue 37), then the hint.
    expect(err).toMatch(/^error: connection: could not reach http:\/\/127\.0\.0\.1:1 .*\n\d+ tries over [\d.]+ m?s\nis the server running\?/);
  });

  it('a revoked key from SERVICE_API_KEY: exit 4, says to issue a new one and put it in the variable', async () => {
    const issued = await cli(['--json', 'keys', 'issue', '--name', 'short-lived', '--scope', 'catalog']);
    expect(issued.code).toBe(0);
    const { id, key } = JSON.parse(issued.out) as { id: string; key: string };
    expect((await cli(['keys', 'revoke', id, '--yes'])).code).toBe(0);
    const { code, err } = await cli(['whoami'], { SERVICE_API_KEY: key });
    expect(code).toBe(4);
    expect(err).toMatch(/^error: revoked: .+\n.*SERVICE_API_KEY.*`seller keys issue`/);
  });

  it('a missing flag without a terminal: exit 2, names the flags', async () => {
    const { code, err } = await cli(['cards', 'create', '--service', 'music-premium']);
    expect(code).toBe(2);
    expect(err).toMatch(/^error: missing flags: .*--tariff.*--price.*\(not running interactively\)/);
  });

  it('`cards on N --auto` with no stock: the refusal and how to refill, exit 1', async () => {
    const created = await cli(['--json', 'cards', 'create', '--service', 'spotify', '--tariff', 'individual', '--type', 'code', '--delivery', 'code', '--sla', '30', '--guarantee', '7', '--price', '299']);
    expect(created.code).toBe(0);
    const { number } = JSON.parse(created.out) as { number: number };
    const { code, err } = await cli(['cards', 'on', String(number), '--auto']);
    expect(code).toBe(1);
    expect(err).toMatch(/^error: .+ \(rejected: stock_empty\)$/m);
    expect(err).toContain(`seller stock refill ${number} --file`);
  });

  it('`orders deliver` of a subscription without --next-charge: need_next_charge and the flag, exit 1', async () => {
    const created = await cli(['--json', 'cards', 'create', '--service', 'music-premium', '--tariff', 'individual', '--type', 'subscription', '--delivery', 'own_account', '--sla', '60', '--guarantee', '30', '--price', '299']);
    const { number } = JSON.parse(created.out) as { number: number };
    expect((await cli(['cards', 'on', String(number)])).code).toBe(0);
    const bought = await cli(['sandbox', 'buy', String(number)]);
    expect(bought.code).toBe(0);
    const order = bought.out.trim();
    expect((await cli(['sandbox', 'pay', order])).code).toBe(0);
    const { code, err } = await cli(['orders', 'deliver', order]);
    expect(code).toBe(1);
    expect(err).toMatch(/^error: .+ \(rejected: need_next_charge\)$/m);
    expect(err).toContain('refused: need_next_charge');
    expect(err).toContain('--next-charge YYYY-MM-DD');
  });

  it('a wrong sandbox admin token: exit 4, the hint is about the admin token, not `seller login`', async () => {
    const { code, err } = await cli(['sandbox', 'clock'], { SERVICE_ADMIN_TOKEN: 'wrong' });
    expect(code).toBe(4);
    expect(err).toMatch(/^error: bad_key: .+\nthe sandbox needs the admin token that seller-server printed at start/);
    expect(err).not.toContain('seller login');
  });

  it('a typo in a noun or a verb: exit 2 with "Did you mean"', async () => {
    const noun = await cli(['card', 'list']);
    expect(noun.code).toBe(2);
    expect(noun.err).toMatch(/^error: unknown command 'card'\n\(Did you mean cards\?\)/);
    const verb = await cli(['orders', 'delivr', 'ord_x']);
    expect(verb.code).toBe(2);
    expect(verb.err).toContain('(Did you mean deliver?)');
  });

  it('`seller api` without -q still works', async () => {
    const { code, out } = await cli(['api', 'GET', '/me']);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toHaveProperty('sellerId');
  });
});

describe('help texts', () => {
  const help = async (...argv: string[]) => {
    const { code, out } = await run([...argv, '--help'], bufferIO());
    expect(code, argv.join(' ')).toBe(0);
    return out;
  };

  it('the top level documents every environment variable the CLI reads, and the exit codes', async () => {
    const out = await help();
    for (const name of ['SERVICE_API_KEY', 'SERVICE_BASE_URL', 'SERVICE_PROFILE', 'SELLER_CONFIG_DIR', 'SERVICE_ADMIN_TOKEN', 'SERVICE_WEBHOOK_SECRET', 'NO_COLOR']) {
      expect(out).toContain(`  ${name} `);
    }
    expect(out).toMatch(/Exit codes: 0 ok, 1 error, 2 usage or cancelled, 4 authentication or permission/);
  });

  it('every noun has help, in plain ASCII quotes', async () => {
    for (const noun of NOUNS) expect(await help(noun.name), noun.name).not.toMatch(/[‘’]/);
  });

  it.each([
    'login',
    'keys issue',
    'cards create',
    'cards on',
    'cards update',
    'stock refill',
    'orders list',
    'orders watch',
    'orders deliver',
    'hooks set',
    'hooks listen',
    'hooks verify',
    'sandbox',
    'api',
  ])('`seller %s --help` has an example', async (words) => {
    expect(await help(...words.split(' '))).toMatch(/\nExamples?:\n {2}\$ .*seller /);
  });

  it('shows no empty default for a repeatable option', async () => {
    expect(await help('api')).not.toContain('(default: [])');
  });
});
