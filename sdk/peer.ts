/**
 * The SDK's optional peers (zod for strict mode and the contract's schemas, ajv for the doctor):
 * loaded when a feature that needs one is used, and when one is not installed the error says which
 * package to install, rather than Node's "Cannot find module" from deep inside the SDK.
 */

/** Whether `error` is a module-not-found error for the package `name`. */
function isMissing(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return String((error as Error).message).includes(`'${name}`);
}

/** The error for a missing peer `name` that `feature` needs, or `error` itself when it is another one. */
export function peerError(error: unknown, name: string, feature: string): unknown {
  if (!isMissing(error, name)) return error;
  return new Error(`${feature} needs the ${name} package, an optional peer dependency of service-seller: npm i ${name}`, { cause: error });
}

/** `load()`, with a missing `name` reported as {@link peerError} says. */
export async function loadPeer<T>(load: () => Promise<T>, name: string, feature: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw peerError(error, name, feature);
  }
}
