/** Test doubles for CLI commands: a buffer IO, a temp config directory, a fake client and prompts. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import type { SellerClient } from '../../sdk/client.ts';
import { errorFromResponse, type SellerError } from '../../sdk/errors.ts';
import { nextByCursor, PagedCall } from '../../sdk/pagination.ts';
import type { Deps } from '../../cli/lib/deps.ts';
import type { IO } from '../../cli/lib/io.ts';
import type { Prompter } from '../../cli/lib/prompts.ts';
import { runCli } from '../../cli/program.ts';
import type { TestServer } from '../helpers/server.ts';

export const LIVE_KEY = `service_live_${'A1b2C3d4E5'.repeat(4)}`;
export const OTHER_KEY = `service_test_${'Z9y8X7w6V5'.repeat(4)}`;

export interface TestIO extends IO {
  out(): string;
  err(): string;
}

export interface IOSetup {
  stdin?: string;
  /** Both stdin and stdout are terminals (default false: a script). */
  tty?: boolean;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  env?: Record<string, string | undefined>;
}

/** Where profiles go when a test names no directory: never the real ~/.config. */
const fallbackConfigDir = mkdtempSync(join(tmpdir(), 'seller-cli-'));
afterAll(() => rmSync(fallbackConfigDir, { recursive: true, force: true }));

export function bufferIO(setup: IOSetup = {}): TestIO {
  let out = '';
  let err = '';
  const tty = setup.tty ?? false;
  return {
    stdin: Readable.from(setup.stdin === undefined ? [] : [Buffer.from(setup.stdin)]),
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    stdinIsTTY: setup.stdinIsTTY ?? tty,
    stdoutIsTTY: setup.stdoutIsTTY ?? tty,
    stderrIsTTY: tty,
    env: { SELLER_CONFIG_DIR: fallbackConfigDir, ...setup.env },
    out: () => out,
    err: () => err,
  };
}

/** A fresh `SELLER_CONFIG_DIR`; call the returned cleanup in afterEach. */
export function tempConfigDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'seller-cli-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const ME = {
  sellerId: 'sel_demo',
  nickname: 'demo-shop',
  sellerType: 'ip' as const,
  mode: 'live' as const,
  key: { id: 'key_abc123', prefix: LIVE_KEY.slice(0, 18), scopes: ['catalog', 'keys'] as ('catalog' | 'keys')[] },
  admissionComplete: true,
};

/** A `PagedCall` over fixed pages, as the SDK returns for list methods. */
export function pagedOf<T>(pages: T[][]): PagedCall<T, { items: T[]; nextCursor: string | null }> {
  const fetchPage = async (query: Record<string, unknown>) => {
    const index = Number(query['cursor'] ?? 0);
    const items = pages[index] ?? [];
    return { items, nextCursor: index + 1 < pages.length ? String(index + 1) : null };
  };
  return new PagedCall(fetchPage, {}, nextByCursor);
}

/** A client whose methods are the given stubs; anything else throws. */
export function fakeClient(stubs: Record<string, unknown>): SellerClient {
  return new Proxy(stubs, {
    get(target, prop) {
      if (prop in target) return target[prop as string];
      if (prop === 'then') return undefined;
      throw new Error(`fake client has no ${String(prop)}`);
    },
  }) as unknown as SellerClient;
}

/** An SDK error as the transport would build it from an answer. */
export function apiError(status: number, body: unknown, headers: Record<string, string> = {}): SellerError {
  return errorFromResponse(status, body, new Headers(headers), 'test.op');
}

/** Prompts answered from a script; asking anything unscripted fails the test. */
export function scriptedPrompter(answers: Partial<Record<keyof Prompter, unknown[]>>): Prompter & { asked: string[] } {
  const asked: string[] = [];
  const next = (kind: keyof Prompter) => async (message: string) => {
    asked.push(message);
    const queue = answers[kind];
    if (!queue || queue.length === 0) throw new Error(`unexpected ${kind} prompt: ${message}`);
    const answer = queue.shift();
    if (answer instanceof Error) throw answer;
    return answer as never;
  };
  return { asked, secret: next('secret'), text: next('text'), confirm: next('confirm'), checkbox: next('checkbox') };
}

/** Runs the CLI in-process; answers the exit code with the buffered output. */
export async function run(argv: string[], io: TestIO, overrides: Partial<Deps> = {}) {
  const code = await runCli(argv, { io, overrides });
  return { code, out: io.out(), err: io.err() };
}

/** A piped table without its first line (the tab-separated header row). */
export const tableBody = (out: string): string => out.slice(out.indexOf('\n') + 1);

/**
 * A real seller-server with one seller for a test file's `seller` runs: started before its tests
 * (the server code loaded only then), closed after. `cli(argv, env)` runs `seller` in-process with
 * the seller's key, the server's address and admin token and a profile directory of its own.
 */
export function useCliServer() {
  let server: TestServer | undefined;
  let seller: Awaited<ReturnType<TestServer['newSeller']>> | undefined;
  let config: ReturnType<typeof tempConfigDir> | undefined;
  beforeAll(async () => {
    const { startTestServer } = await import('../helpers/server.ts');
    server = await startTestServer();
    config = tempConfigDir();
    seller = await server.newSeller();
  });
  afterAll(async () => {
    await server?.close();
    config?.cleanup();
  });
  return {
    get server(): TestServer {
      return server!;
    },
    get apiKey(): string {
      return seller!.apiKey;
    },
    cli: (argv: string[], env: Record<string, string> = {}) =>
      run(argv, bufferIO({ env: { SELLER_CONFIG_DIR: config!.dir, SERVICE_BASE_URL: server!.url, SERVICE_API_KEY: seller!.apiKey, SERVICE_ADMIN_TOKEN: server!.adminToken, ...env } })),
  };
}
