/**
 * The page's way in: the SDK's `SandboxClient` with the admin token, nothing else. The token is kept
 * in the tab's sessionStorage only (never a URL, a cookie or a log line): gone when the tab closes.
 */
import { SandboxClient } from '../../sdk/sandbox.ts';

const KEY = 'seller-sandbox-admin-token';

export const savedToken = (): string | null => sessionStorage.getItem(KEY);
export const saveToken = (token: string): void => sessionStorage.setItem(KEY, token);
export const forgetToken = (): void => sessionStorage.removeItem(KEY);

/** A client of this server's sandbox with `token`. */
export const sandboxClient = (token: string): SandboxClient =>
  new SandboxClient({ baseUrl: location.origin, adminToken: token, maxRetries: 1, timeoutMs: 15_000 });

/** Whether the server takes `token`: a read of its clock with it (a 401 says no). */
export async function tokenTaken(token: string): Promise<boolean> {
  try {
    await sandboxClient(token).clock();
    return true;
  } catch (err) {
    if ((err as { status?: number }).status === 401) return false;
    throw err;
  }
}
