/**
 * A Bot API call's parameters, as Telegram takes them: from the query string, a JSON body, a form
 * (`application/x-www-form-urlencoded`) or a multipart body (read by the platform's `FormData`), all
 * merged; a value that is JSON in Telegram's docs (`reply_markup`, `allowed_updates`, `commands`)
 * may come as a JSON string. A wrong parameter is Telegram's 400 `Bad Request: …`.
 */

/** A refusal in Telegram's shape: `{ok: false, error_code, description, parameters?}`. */
export class TelegramError extends Error {
  readonly code: number;
  readonly description: string;
  readonly retryAfter: number | undefined;

  constructor(code: number, description: string, retryAfter?: number) {
    super(description);
    this.code = code;
    this.description = description;
    this.retryAfter = retryAfter;
  }

  body(): Record<string, unknown> {
    return { ok: false, error_code: this.code, description: this.description, ...(this.retryAfter === undefined ? {} : { parameters: { retry_after: this.retryAfter } }) };
  }
}

export const badRequest = (what: string) => new TelegramError(400, `Bad Request: ${what}`);

export type Params = Record<string, unknown>;

/** The merged parameters of a request: query first, the body's over them. */
export async function readParams(query: unknown, body: unknown, contentType: string | undefined): Promise<Params> {
  const out: Params = { ...(query as Params) };
  if (Buffer.isBuffer(body)) {
    if (body.length > 0 && contentType && /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(contentType)) {
      const form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData().catch(() => {
        throw badRequest('the form body cannot be read');
      });
      for (const [key, value] of form) out[key] = value;
    }
  } else if (body && typeof body === 'object' && !Array.isArray(body)) Object.assign(out, body);
  return out;
}

export function int(p: Params, name: string, empty = `${name} is empty`): number {
  const value = optionalInt(p, name);
  if (value === undefined) throw badRequest(empty);
  return value;
}

export function optionalInt(p: Params, name: string): number | undefined {
  const v = p[name];
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n)) throw badRequest(`invalid ${name} specified`);
  return n;
}

export function str(p: Params, name: string): string | undefined {
  const v = p[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw badRequest(`field "${name}" must be of type String`);
}

export function bool(p: Params, name: string): boolean {
  const v = p[name];
  return v === true || v === 'true' || v === '1' || v === 1;
}

/** A parameter Telegram takes as JSON: an object or array, or its JSON text. */
export function json(p: Params, name: string): unknown {
  const v = p[name];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    throw badRequest(`can't parse ${name} JSON object`);
  }
}
