import { describe, expect, it } from 'vitest';
import { AUTH_CODES } from '../../sdk/contract/common.ts';
import { ConnectionError } from '../../sdk/errors.ts';
import { CancelledError, describeError, errorLine, UsageError } from '../../cli/lib/errors.ts';
import { useLanguage } from '../../cli/i18n/index.ts';
import { cancellable } from '../../cli/lib/prompts.ts';
import { apiError, bufferIO, fakeClient, run, tempConfigDir } from './helpers.ts';

const STATUS: Record<string, number> = { no_key: 401, bad_key: 401, revoked: 401, not_seller: 403, seller_blocked: 403, scope: 403 };

describe('error mapping', () => {
  it.each(AUTH_CODES)('%s exits 4 with a hint', (code) => {
    const detail = code === 'scope' ? { needed: 'orders' } : undefined;
    const report = describeError(apiError(STATUS[code]!, { error: code, ...(detail ? { detail } : {}) }));
    expect(report.exitCode).toBe(4);
    expect(report.lines[0]).toMatch(new RegExp(`^error: ${code}: .+`));
    expect(report.lines.length).toBeGreaterThan(1);
  });

  it('tells which scope to issue a key with', () => {
    const { lines } = describeError(apiError(403, { error: 'scope', detail: { needed: 'orders' } }));
    expect(lines).toContain('this key lacks scope orders; issue a key with it: `seller keys issue --scope orders`');
  });

  it('sends bad and revoked keys to `seller login`', () => {
    expect(describeError(apiError(401, { error: 'bad_key' })).lines.join('\n')).toContain('`seller login`');
    expect(describeError(apiError(401, { error: 'revoked' })).lines.join('\n')).toContain('`seller login`');
  });

  it('shows a refusal with its kind and details (exit 1)', () => {
    const report = describeError(
      apiError(409, { error: 'rejected', refusal: { kind: 'delivery_method', field: 'deliveryMethod', allowed: ['invite', 'own_account'] } }, { 'x-request-id': 'req_1' }),
    );
    expect(report.exitCode).toBe(1);
    expect(report.lines).toEqual([
      'error: a marketplace rule refused the call (rejected: delivery_method)',
      'refused: delivery_method',
      'field: deliveryMethod',
      'allowed values: invite, own_account',
      'request id: req_1',
    ]);
  });

  it('maps not_found and bad_request to 1', () => {
    expect(describeError(apiError(404, { error: 'not_found' })).exitCode).toBe(1);
    const issue = { path: ['query', 'limit'], code: 'too_big', maximum: 200, origin: 'number', message: 'Too big: expected number to be <=200' };
    const bad = describeError(apiError(400, { error: 'bad_request', detail: { message: 'query.limit: Too big', issues: [issue] } }));
    expect(bad).toEqual({ lines: ['error: bad_request: query.limit: too big (at most 200)'], exitCode: 1 });
  });

  it('says when to retry after a rate limit', () => {
    const { lines, exitCode } = describeError(apiError(429, { error: 'rate' }, { 'retry-after': '3' }));
    expect(exitCode).toBe(1);
    expect(lines).toContain('retry in 3 s');
  });

  it('explains a connection failure', () => {
    const { lines, exitCode } = describeError(new ConnectionError({ text: 'could not reach http://127.0.0.1:1', operation: 'me.get', origin: 'http://127.0.0.1:1' }));
    expect(exitCode).toBe(1);
    expect(lines[0]).toBe('error: connection: could not reach http://127.0.0.1:1');
    expect(lines[1]).toContain('--base-url');
  });

  it('maps usage errors and cancellations to 2', () => {
    expect(describeError(new UsageError('bad'))).toEqual({ lines: ['error: bad'], exitCode: 2 });
    expect(describeError(new CancelledError()).exitCode).toBe(2);
    expect(describeError(new Error('boom'))).toEqual({ lines: ['error: boom'], exitCode: 1 });
  });

  it('turns Ctrl-C in a prompt into a cancellation', async () => {
    const ctrlC = Object.assign(new Error('User force closed the prompt'), { name: 'ExitPromptError' });
    await expect(cancellable(Promise.reject(ctrlC))).rejects.toBeInstanceOf(CancelledError);
  });
});

describe('exit codes of the program', () => {
  it('exits 2 on usage errors from commander', async () => {
    expect((await run(['nope'], bufferIO())).code).toBe(2);
    expect((await run(['keys', 'list', '--bogus'], bufferIO())).code).toBe(2);
    expect((await run(['catalog', 'list', '--limit', '0'], bufferIO())).code).toBe(2);
    expect((await run(['api', 'GET'], bufferIO())).code).toBe(2);
  });

  it('exits 0 on --help and --version, with the text on stdout', async () => {
    const help = await run(['--help'], bufferIO());
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: seller');
    const version = await run(['--version'], bufferIO());
    expect(version).toMatchObject({ code: 0, out: '0.1.0\n' });
  });

  it('exits 4 or 1 from an API error, with the message on stderr only', async () => {
    const config = tempConfigDir();
    try {
      const env = { SELLER_CONFIG_DIR: config.dir, SERVICE_API_KEY: 'k' };
      const failing = (error: Error) => () => fakeClient({ me: { get: () => Promise.reject(error) } });
      const revoked = await run(['whoami'], bufferIO({ env }), { client: failing(apiError(401, { error: 'revoked' })) });
      expect(revoked).toMatchObject({ code: 4, out: '' });
      expect(revoked.err).toMatch(/^error: revoked: /);
      const missing = await run(['whoami'], bufferIO({ env }), { client: failing(apiError(404, { error: 'not_found' })) });
      expect(missing.code).toBe(1);
    } finally {
      config.cleanup();
    }
  });
});

describe('an error named inside another sentence', () => {
  it.each(['en', 'ru'] as const)('loses its error prefix in %s', async (language) => {
    await useLanguage(language);
    try {
      expect(errorLine(new Error('boom'))).toBe('boom');
      expect(errorLine(new UsageError('bad flag'))).toBe('bad flag');
    } finally {
      await useLanguage('en');
    }
  });
});
