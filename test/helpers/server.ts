/**
 * A real `seller-server` for end-to-end tests: in memory, on 127.0.0.1 with a free port,
 * with a sandbox client and a helper that creates sellers.
 */
import { startServer, type RunningServer, type StartOptions } from '../../server/index.ts';
import type { KeyMode, Scope, SellerType } from '../../sdk/contract/index.ts';

export interface TestServer extends RunningServer {
  /** Creates a seller through the sandbox and returns its first key. */
  newSeller(opts?: { mode?: KeyMode; sellerType?: SellerType; admission?: 'complete' | 'none'; scopes?: Scope[] }): Promise<{ sellerId: string; keyId: string; apiKey: string }>;
  /** A raw sandbox call. */
  sandbox<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

export async function startTestServer(opts: StartOptions = {}): Promise<TestServer> {
  const server = await startServer({ port: 0, memory: true, adminToken: 'test-admin-token', ...opts });
  const sandbox = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}/sandbox/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${server.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as T;
    if (!res.ok) throw new Error(`sandbox ${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    ...server,
    sandbox,
    newSeller: (o = {}) => sandbox('POST', '/sellers', { admission: 'complete', ...o }),
  };
}
