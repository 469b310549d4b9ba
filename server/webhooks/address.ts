/**
 * Where the webhook sender may connect (gaps.md, "Delivery ladder"): the address is checked when it
 * is saved (`checkHookUrl`), and again before every attempt (`resolveAndCheck`): the host is
 * resolved, every address it resolves to must be public, and the connection then goes to the
 * checked address with no second DNS query (`pinnedLookup` / `pinnedRequestOptions`), so a DNS
 * answer that changes between check and connect (rebinding) cannot redirect the delivery.
 */
import { promises as dnsPromises } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import type { RequestOptions } from 'node:http';
import type { LookupFunction } from 'node:net';
import type { URL_REFUSAL_REASONS } from '../../sdk/contract/index.ts';

// ---------------------------------------------------------------------------------------------
// IPv4
// ---------------------------------------------------------------------------------------------

function parseIpv4Part(part: string): number | null {
  if (part === '') return null;
  if (/^0x/i.test(part)) {
    const digits = part.slice(2);
    if (digits === '') return 0; // "0x" alone is 0, as the URL standard has it
    return /^[0-9a-f]+$/i.test(digits) ? parseInt(digits, 16) : null;
  }
  if (part.length > 1 && part.startsWith('0')) return /^[0-7]+$/.test(part) ? parseInt(part, 8) : null;
  return /^[0-9]+$/.test(part) ? parseInt(part, 10) : null;
}

/**
 * Reads an IPv4 address in any spelling that `inet_aton` (hence `getaddrinfo`) or the URL standard
 * accept: dotted quad; 1, 2 or 3 parts where the last fills the remaining bytes (`127.1`,
 * `127.0.1`, `2130706433`); each part decimal, octal with a leading `0` (`0177.0.0.1`) or hex with
 * `0x` (`0x7f.0.0.1`, `0x7f000001`); one trailing dot. Returns the dotted quad, or null when the
 * string is not an IPv4 address in any of these spellings.
 */
export function parseIpv4Loose(host: string): string | null {
  let s = host.trim();
  if (s.endsWith('.')) s = s.slice(0, -1);
  if (s === '' || s.length > 64) return null;
  const parts = s.split('.');
  if (parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const n = parseIpv4Part(part);
    if (n === null || !Number.isFinite(n)) return null;
    numbers.push(n);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255)) return null;
  if (last >= 256 ** (4 - numbers.length)) return null;
  let value = last;
  numbers.forEach((n, i) => {
    value += n * 256 ** (3 - i);
  });
  return uint32ToIpv4(value);
}

function uint32ToIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

function ipv4ToUint32(dotted: string): number {
  const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

/** Denied IPv4 ranges: [network, prefix length, name]. The first match names the range. */
const IPV4_DENY: ReadonlyArray<readonly [number, number, string]> = (
  [
    ['255.255.255.255', 32, 'broadcast'],
    ['0.0.0.0', 8, 'this-network'],
    ['10.0.0.0', 8, 'private'],
    ['100.64.0.0', 10, 'cgnat'],
    ['127.0.0.0', 8, 'loopback'],
    ['169.254.0.0', 16, 'link-local'],
    ['172.16.0.0', 12, 'private'],
    ['192.0.0.0', 24, 'ietf-protocol'],
    ['192.0.2.0', 24, 'documentation'],
    ['192.168.0.0', 16, 'private'],
    ['198.18.0.0', 15, 'benchmarking'],
    ['198.51.100.0', 24, 'documentation'],
    ['203.0.113.0', 24, 'documentation'],
    ['224.0.0.0', 4, 'multicast'],
    ['240.0.0.0', 4, 'reserved'],
  ] as const
).map(([net, len, name]) => [ipv4ToUint32(net), len, name] as const);

function ipv4Range(value: number): string | null {
  for (const [net, len, name] of IPV4_DENY) {
    const shift = 32 - len;
    if (value >>> shift === net >>> shift) return name;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// IPv6
// ---------------------------------------------------------------------------------------------

const STRICT_IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Parses an IPv6 address (no brackets, no zone) into its eight 16-bit groups. */
function parseIpv6(text: string): number[] | null {
  let s = text.toLowerCase();
  const tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  if (lastColon === -1) return null;
  if (s.includes('.')) {
    const v4 = s.slice(lastColon + 1);
    if (!STRICT_IPV4.test(v4)) return null;
    const n = ipv4ToUint32(v4);
    tail.push(n >>> 16, n & 0xffff);
    s = s.slice(0, lastColon + 1);
    // "::1.2.3.4" leaves "::"; "::ffff:1.2.3.4" leaves "::ffff:"; drop a lone trailing colon.
    if (s.endsWith(':') && !s.endsWith('::')) s = s.slice(0, -1);
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const readGroups = (part: string): number[] | null => {
    if (part === '') return [];
    const groups: number[] = [];
    for (const g of part.split(':')) {
      if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
      groups.push(parseInt(g, 16));
    }
    return groups;
  };
  const head = readGroups(halves[0]!);
  if (head === null) return null;
  if (halves.length === 1) {
    const all = [...head, ...tail];
    return all.length === 8 ? all : null;
  }
  const rest = readGroups(halves[1]!);
  if (rest === null) return null;
  const known = head.length + rest.length + tail.length;
  if (known > 7) return null;
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest, ...tail];
}

interface Classification {
  family: 4 | 6;
  /** Canonical text: dotted quad, or IPv6 as given (lowercase, no brackets or zone). */
  address: string;
  /** Name of the denied range, or null when public. */
  range: string | null;
  /** 127/8, ::1, or an IPv4-mapped 127/8 address. */
  loopback: boolean;
}

function classifyIpv4(value: number): Classification {
  const range = ipv4Range(value);
  return { family: 4, address: uint32ToIpv4(value), range, loopback: range === 'loopback' };
}

function classifyIpv6(g: number[], address: string): Classification {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = ((g6 << 16) | g7) >>> 0;
  const result = (range: string | null, loopback = false): Classification => ({ family: 6, address, range, loopback });
  const judgeEmbedded = (form: string, value: number, mappedLoopback = false) => {
    const inner = ipv4Range(value);
    return result(inner === null ? null : `${form}/${inner}`, mappedLoopback && inner === 'loopback');
  };
  const zeros = (...xs: number[]) => xs.every((x) => x === 0);

  if (zeros(g0, g1, g2, g3, g4, g5, g6, g7)) return result('unspecified');
  if (zeros(g0, g1, g2, g3, g4, g5, g6) && g7 === 1) return result('loopback', true);
  // ::ffff:a.b.c.d: IPv4-mapped, a socket to it is an IPv4 connection to a.b.c.d.
  if (zeros(g0, g1, g2, g3, g4) && g5 === 0xffff) return judgeEmbedded('ipv4-mapped', embedded, true);
  // ::ffff:0:a.b.c.d: IPv4-translated (SIIT).
  if (zeros(g0, g1, g2, g3, g5) && g4 === 0xffff) return judgeEmbedded('ipv4-translated', embedded);
  // ::a.b.c.d: IPv4-compatible (deprecated).
  if (zeros(g0, g1, g2, g3, g4, g5)) return judgeEmbedded('ipv4-compatible', embedded);
  // 64:ff9b::/96: well-known NAT64 prefix.
  if (g0 === 0x64 && g1 === 0xff9b && zeros(g2, g3, g4, g5)) return judgeEmbedded('nat64', embedded);
  // 64:ff9b:1::/48: local-use NAT64 prefix, translation inside a private network.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return result('nat64-local');
  // 2002::/16: 6to4, the IPv4 address in bits 16-48.
  if (g0 === 0x2002) return judgeEmbedded('6to4', ((g1 << 16) | g2) >>> 0);
  // 2001::/32: Teredo, the (obfuscated) IPv4 server and client inside; denied outright.
  if (g0 === 0x2001 && g1 === 0) return result('teredo');
  if (g0 === 0x2001 && g1 === 0x0db8) return result('documentation');
  if (g0 === 0x3fff && g1 < 0x1000) return result('documentation'); // 3fff::/20
  if (g0 === 0x0100 && zeros(g1, g2, g3)) return result('discard'); // 100::/64
  if ((g0 & 0xfe00) === 0xfc00) return result('unique-local'); // fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return result('link-local'); // fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return result('site-local'); // fec0::/10 (deprecated)
  if ((g0 & 0xff00) === 0xff00) return result('multicast'); // ff00::/8
  // Only global unicast (2000::/3) is reachable on the internet; everything else is reserved.
  if ((g0 & 0xe000) !== 0x2000) return result('reserved');
  return result(null);
}

/** Strips `[...]` and a `%zone`. */
function bareHost(host: string): string {
  let s = host.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone !== -1 && s.includes(':')) s = s.slice(0, zone);
  return s;
}

/** Classifies an IP literal in any accepted spelling, or null when `ip` is not one. */
function classify(ip: string): Classification | null {
  const s = bareHost(ip);
  if (s.includes(':')) {
    const groups = parseIpv6(s);
    return groups === null ? null : classifyIpv6(groups, s.toLowerCase());
  }
  const dotted = parseIpv4Loose(s);
  return dotted === null ? null : classifyIpv4(ipv4ToUint32(dotted));
}

/**
 * The name of the denied range `ip` falls in, or null when it is a public address. Takes IPv4 in
 * any legacy spelling (see `parseIpv4Loose`) and IPv6 with or without brackets and zone id; IPv6
 * forms that embed an IPv4 address are judged by that address (the name is then `<form>/<range>`,
 * e.g. `ipv4-mapped/loopback`). A string that is not an IP address at all gives `not-an-ip`
 * (refused: the check fails closed).
 */
export function isDeniedAddress(ip: string): string | null {
  const c = classify(ip);
  return c === null ? 'not-an-ip' : c.range;
}

/** True for 127/8, ::1 and IPv4-mapped 127/8 (`::ffff:127.0.0.1`), in any spelling. */
export function isLoopbackAddress(ip: string): boolean {
  return classify(ip)?.loopback ?? false;
}

// ---------------------------------------------------------------------------------------------
// Save-time URL check
// ---------------------------------------------------------------------------------------------

export type HookUrlRefusal = (typeof URL_REFUSAL_REASONS)[number];

export type HookUrlCheck =
  | { ok: true; url: URL }
  | { ok: false; reason: HookUrlRefusal; message: string };

/** Special-use and private-use name suffixes that never name a public host. */
const LOCAL_NAME_SUFFIXES = ['.local', '.internal', '.home.arpa', '.localdomain', '.lan', '.intranet', '.corp'];

/** Why a host name is not public, or null. `localhost` names are loopback (RFC 6761). */
function localName(name: string): { why: string; loopback: boolean } | null {
  const host = name.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return { why: 'localhost', loopback: true };
  for (const suffix of LOCAL_NAME_SUFFIXES) {
    if (host.endsWith(suffix) || host === suffix.slice(1)) return { why: suffix.slice(1), loopback: false };
  }
  if (!host.includes('.')) return { why: 'single-label', loopback: false };
  return null;
}

/**
 * Static check of a webhook address when it is saved. Requires `https:`, no credentials, and a
 * public host: an IP literal outside every denied range, or a name that is not local
 * (`localhost`, `*.localhost`, `*.local`, `*.internal`, `*.home.arpa`, other private-use suffixes,
 * single-label names). With `allowLocal` (the server's `--allow-local-hooks`), loopback hosts
 * (127/8, ::1, `localhost`) are accepted, over `http:` too; nothing else is relaxed.
 *
 * Names are resolved only at send time (`resolveAndCheck`), where every address is checked.
 */
export function checkHookUrl(input: string, options: { allowLocal: boolean }): HookUrlCheck {
  const refuse = (reason: HookUrlRefusal, message: string): HookUrlCheck => ({ ok: false, reason, message });
  if (typeof input !== 'string' || input.length === 0 || input.length > 2048 || input.trim() !== input) {
    return refuse('malformed', 'not an absolute URL');
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse('malformed', 'not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('https_only', 'only https:// addresses are accepted');
  if (url.username !== '' || url.password !== '') {
    return refuse('credentials', 'the address must not carry a user name or password');
  }
  const host = url.hostname;
  if (host === '') return refuse('malformed', 'the address has no host');

  let loopback: boolean;
  let notPublic: string | null;
  const ip = classify(host);
  if (ip !== null) {
    loopback = ip.loopback;
    notPublic = ip.range;
  } else if (host.startsWith('[') || host.includes(':')) {
    return refuse('malformed', 'the host is not a valid IP address');
  } else {
    const local = localName(host);
    loopback = local?.loopback ?? false;
    notPublic = local?.why ?? null;
  }
  const relaxed = options.allowLocal && loopback;
  if (notPublic !== null && !relaxed) {
    return refuse('public_host_only', `the host must be public (${host} is ${notPublic})`);
  }
  if (url.protocol === 'http:' && !relaxed) {
    return refuse(
      'https_only',
      options.allowLocal ? 'only https:// addresses are accepted (http:// only on loopback)' : 'only https:// addresses are accepted',
    );
  }
  return { ok: true, url };
}

// ---------------------------------------------------------------------------------------------
// Send-time resolution and pinning
// ---------------------------------------------------------------------------------------------

/** The DNS lookup used by `resolveAndCheck`: `dns.promises.lookup` with `{all: true}`, or a stand-in. */
export type ResolveLookup = (
  hostname: string,
  options: { all: true },
) => Promise<ReadonlyArray<LookupAddress> | LookupAddress>;

export interface ResolveAndCheckOptions {
  /** Let loopback addresses through (127/8, ::1, IPv4-mapped 127/8); for `--allow-local-hooks`. */
  allowLoopback: boolean;
  /** Default: `dns.promises.lookup`. */
  lookup?: ResolveLookup;
}

export type ResolveRefusal = 'denied' | 'lookup_failed' | 'no_address';

export type ResolveResult =
  | { ok: true; address: string; family: 4 | 6 }
  | { ok: false; reason: ResolveRefusal; address?: string; range?: string; message: string };

const defaultLookup: ResolveLookup = (hostname, options) => dnsPromises.lookup(hostname, options);

/**
 * Resolves `host` (a name, or an IP literal in any spelling, IPv6 bracketed or not) once and checks
 * every address it resolves to: one denied address refuses the whole host. On success answers the
 * first address, to connect to with `pinnedLookup` / `pinnedRequestOptions`.
 */
export async function resolveAndCheck(host: string, options: ResolveAndCheckOptions): Promise<ResolveResult> {
  const judge = (c: Classification | null, raw: string): ResolveResult | null => {
    if (c === null) return { ok: false, reason: 'denied', address: raw, range: 'not-an-ip', message: `${raw} is not an IP address` };
    if (c.range !== null && !(options.allowLoopback && c.loopback)) {
      return {
        ok: false,
        reason: 'denied',
        address: c.address,
        range: c.range,
        message: `${host} resolves to ${c.address} (${c.range}), which is not a public address`,
      };
    }
    return null;
  };

  const literal = classify(host);
  if (literal !== null) return judge(literal, host) ?? { ok: true, address: literal.address, family: literal.family };

  const name = bareHost(host);
  if (name === '' || name.includes(':') || name.includes('/') || /\s/.test(name)) {
    return { ok: false, reason: 'lookup_failed', message: `${JSON.stringify(host)} is not a host name` };
  }
  let answer: ReadonlyArray<LookupAddress> | LookupAddress;
  try {
    answer = await (options.lookup ?? defaultLookup)(name, { all: true });
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    return {
      ok: false,
      reason: 'lookup_failed',
      message: `cannot resolve ${name}${typeof code === 'string' ? ` (${code})` : ''}`,
    };
  }
  const addresses = Array.isArray(answer) ? (answer as ReadonlyArray<LookupAddress>) : [answer as LookupAddress];
  if (addresses.length === 0) return { ok: false, reason: 'no_address', message: `${name} has no address` };

  let first: Classification | undefined;
  for (const entry of addresses) {
    const raw = typeof entry?.address === 'string' ? entry.address : String(entry?.address);
    const c = classify(raw);
    const refusal = judge(c, raw);
    if (refusal) return refusal;
    first ??= c!;
  }
  return { ok: true, address: first!.address, family: first!.family };
}

/**
 * A `lookup` for `http.request` / `https.request` / `net.connect` options that answers the given,
 * already checked address without asking DNS, so the connection goes exactly there. Keep the
 * request's `hostname` the original name: the Host header and TLS (SNI, certificate check) still
 * use it. Handles both call shapes Node uses (`{all: true}` with family auto-selection, or one
 * address).
 */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    // Old-style calls pass the callback second.
    const cb = (typeof options === 'function' ? options : callback) as Parameters<LookupFunction>[2];
    const all = typeof options === 'object' && options !== null && options.all === true;
    process.nextTick(() => {
      if (all) cb(null, [{ address, family }]);
      else cb(null, address, family);
    });
  };
}

/**
 * Request options for delivering to `url` through the checked `address`: `hostname` stays the
 * URL's host (Host header, TLS servername and certificate check use it), `lookup` is pinned, no
 * pooled socket (a kept-alive socket may lead to an address checked for an earlier attempt).
 * Add `method`, `headers` and `timeout` as needed.
 */
export function pinnedRequestOptions(url: URL, resolved: { address: string; family: 4 | 6 }): RequestOptions & {
  servername?: string;
} {
  const hostname = bareHost(url.hostname);
  const isLiteral = classify(hostname) !== null;
  const options: RequestOptions & { servername?: string } = {
    protocol: url.protocol,
    // An IP literal host connects to the checked (canonical) address; a name goes through the pin.
    hostname: isLiteral ? resolved.address : hostname,
    port: url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
    lookup: pinnedLookup(resolved.address, resolved.family),
    agent: false,
  };
  if (!isLiteral && url.protocol === 'https:') options.servername = hostname;
  return options;
}
