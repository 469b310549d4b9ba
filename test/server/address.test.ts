import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import tls from 'node:tls';
import https from 'node:https';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkHookUrl,
  isDeniedAddress,
  isLoopbackAddress,
  parseIpv4Loose,
  pinnedLookup,
  pinnedRequestOptions,
  resolveAndCheck,
  type ResolveLookup,
} from '../../server/webhooks/address.ts';

/** [range, name, first, last, inside] */
const IPV4_RANGES: Array<[string, string, string, string, string]> = [
  ['0.0.0.0/8', 'this-network', '0.0.0.0', '0.255.255.255', '0.1.2.3'],
  ['10.0.0.0/8', 'private', '10.0.0.0', '10.255.255.255', '10.1.2.3'],
  ['100.64.0.0/10', 'cgnat', '100.64.0.0', '100.127.255.255', '100.100.100.100'],
  ['127.0.0.0/8', 'loopback', '127.0.0.0', '127.255.255.255', '127.0.0.1'],
  ['169.254.0.0/16', 'link-local', '169.254.0.0', '169.254.255.255', '169.254.169.254'],
  ['172.16.0.0/12', 'private', '172.16.0.0', '172.31.255.255', '172.20.10.1'],
  ['192.0.0.0/24', 'ietf-protocol', '192.0.0.0', '192.0.0.255', '192.0.0.8'],
  ['192.0.2.0/24', 'documentation', '192.0.2.0', '192.0.2.255', '192.0.2.33'],
  ['192.168.0.0/16', 'private', '192.168.0.0', '192.168.255.255', '192.168.1.1'],
  ['198.18.0.0/15', 'benchmarking', '198.18.0.0', '198.19.255.255', '198.19.0.1'],
  ['198.51.100.0/24', 'documentation', '198.51.100.0', '198.51.100.255', '198.51.100.7'],
  ['203.0.113.0/24', 'documentation', '203.0.113.0', '203.0.113.255', '203.0.113.50'],
  ['224.0.0.0/4', 'multicast', '224.0.0.0', '239.255.255.255', '230.1.2.3'],
  ['240.0.0.0/4', 'reserved', '240.0.0.0', '255.255.255.254', '250.0.0.1'],
  ['255.255.255.255/32', 'broadcast', '255.255.255.255', '255.255.255.255', '255.255.255.255'],
];

/** Addresses just outside the ranges, and well-known public ones. */
const PUBLIC_V4 = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '1.0.0.0',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.255',
  '192.0.3.0',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '198.51.99.255',
  '198.51.101.0',
  '203.0.112.255',
  '203.0.114.0',
  '223.255.255.255',
];

/** [range, name, first, last, inside] */
const IPV6_RANGES: Array<[string, string, string, string, string]> = [
  ['::/128', 'unspecified', '::', '0:0:0:0:0:0:0:0', '::0'],
  ['::1/128', 'loopback', '::1', '0:0:0:0:0:0:0:1', '0000::0001'],
  ['fc00::/7', 'unique-local', 'fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fd12:3456:789a::1'],
  ['fe80::/10', 'link-local', 'fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fe80::1'],
  ['ff00::/8', 'multicast', 'ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'ff02::1'],
  ['2001:db8::/32', 'documentation', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db8:85a3::8a2e:370:7334'],
  ['100::/64', 'discard', '100::', '100::ffff:ffff:ffff:ffff', '100::42'],
  ['2001::/32 (Teredo)', 'teredo', '2001::', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
];

const PUBLIC_V6 = [
  '2606:4700::1111',
  '[2606:4700::1111]',
  '2001:4860:4860::8888',
  '2a00:1450:4001:81c::200e',
  '2001:1::1',
  '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff',
  '2001:db9::',
  '2002:808:808::1', // 6to4 of 8.8.8.8
  '::ffff:8.8.8.8', // mapped public
  '64:ff9b::808:808', // NAT64 of 8.8.8.8
];

const LOOPBACK_SPELLINGS = [
  '127.0.0.1',
  '2130706433',
  '0177.0.0.1',
  '0177.0.0.01',
  '0000177.0.0.1',
  '0x7f.0.0.1',
  '0x7F.0x0.0x0.0x1',
  '0x7f000001',
  '017700000001',
  '127.1',
  '127.0.1',
  '0x7f.1',
  '0177.1',
  '127.0.0.1.',
];

const TEN_SPELLINGS = [
  '10.0.0.1',
  '167772161',
  '012.0.0.1',
  '0xa.0.0.1',
  '0x0a000001',
  '01200000001',
  '10.1',
  '10.0.1',
  '012.1',
  '0xa.1',
  '0xA.0.1',
];

describe('isDeniedAddress: IPv4 ranges', () => {
  for (const [range, name, first, last, inside] of IPV4_RANGES) {
    it(`${range} → ${name} (first, last, inside)`, () => {
      expect(isDeniedAddress(first)).toBe(name);
      expect(isDeniedAddress(last)).toBe(name);
      expect(isDeniedAddress(inside)).toBe(name);
    });
  }

  it('public addresses, including the neighbours of every range, pass', () => {
    for (const ip of PUBLIC_V4) expect(isDeniedAddress(ip), ip).toBeNull();
  });

  it('fails closed on what is not an IP address', () => {
    for (const junk of ['', 'example.com', '1.2.3.4.5', '256.0.0.1', 'fe80::g', '1:2:3:4:5:6:7:8:9', ':::', '[::1']) {
      expect(isDeniedAddress(junk), junk).toBe('not-an-ip');
    }
  });
});

describe('isDeniedAddress: IPv6 ranges', () => {
  for (const [range, name, first, last, inside] of IPV6_RANGES) {
    it(`${range} → ${name} (first, last, inside)`, () => {
      expect(isDeniedAddress(first)).toBe(name);
      expect(isDeniedAddress(last)).toBe(name);
      expect(isDeniedAddress(inside)).toBe(name);
      expect(isDeniedAddress(`[${inside}]`)).toBe(name);
      expect(isDeniedAddress(inside.toUpperCase())).toBe(name);
    });
  }

  it('other non-global-unicast space is reserved; site-local and local NAT64 are refused', () => {
    expect(isDeniedAddress('101::1')).toBe('reserved');
    expect(isDeniedAddress('4000::1')).toBe('reserved');
    expect(isDeniedAddress('fec0::1')).toBe('site-local');
    expect(isDeniedAddress('64:ff9b:1::1')).toBe('nat64-local');
    expect(isDeniedAddress('3fff::1')).toBe('documentation');
  });

  it('public IPv6 passes', () => {
    for (const ip of PUBLIC_V6) expect(isDeniedAddress(ip), ip).toBeNull();
  });

  it('brackets and zone ids', () => {
    expect(isDeniedAddress('fe80::1%eth0')).toBe('link-local');
    expect(isDeniedAddress('[fe80::1%25en0]')).toBe('link-local');
    expect(isDeniedAddress('[::1]')).toBe('loopback');
    expect(isDeniedAddress('::1%lo')).toBe('loopback');
  });
});

describe('isDeniedAddress: IPv6 forms embedding IPv4 are judged by the IPv4 address', () => {
  const cases: Array<[string, string]> = [
    // IPv4-mapped, dotted and hex, short and full
    ['::ffff:127.0.0.1', 'ipv4-mapped/loopback'],
    ['::ffff:7f00:1', 'ipv4-mapped/loopback'],
    ['[::ffff:7f00:1]', 'ipv4-mapped/loopback'],
    ['::FFFF:7F00:0001', 'ipv4-mapped/loopback'],
    ['0:0:0:0:0:ffff:127.0.0.1', 'ipv4-mapped/loopback'],
    ['0000:0000:0000:0000:0000:ffff:7f00:0001', 'ipv4-mapped/loopback'],
    ['::ffff:10.0.0.1', 'ipv4-mapped/private'],
    ['::ffff:a00:1', 'ipv4-mapped/private'],
    ['::ffff:169.254.169.254', 'ipv4-mapped/link-local'],
    ['::ffff:a9fe:a9fe', 'ipv4-mapped/link-local'],
    ['::ffff:0.0.0.0', 'ipv4-mapped/this-network'],
    // IPv4-translated
    ['::ffff:0:127.0.0.1', 'ipv4-translated/loopback'],
    // IPv4-compatible
    ['::127.0.0.1', 'ipv4-compatible/loopback'],
    ['::7f00:1', 'ipv4-compatible/loopback'],
    ['::10.0.0.1', 'ipv4-compatible/private'],
    ['::192.168.0.1', 'ipv4-compatible/private'],
    // NAT64 well-known prefix
    ['64:ff9b::127.0.0.1', 'nat64/loopback'],
    ['64:ff9b::7f00:1', 'nat64/loopback'],
    ['64:ff9b::a00:1', 'nat64/private'],
    ['64:ff9b::100.64.0.1', 'nat64/cgnat'],
    // 6to4: IPv4 in bits 16-48
    ['2002:7f00:1::', '6to4/loopback'],
    ['2002:7f00:0001:1234::5', '6to4/loopback'],
    ['2002:a00:1::1', '6to4/private'],
    ['2002:c0a8:101::1', '6to4/private'],
    ['2002:a9fe:a9fe::', '6to4/link-local'],
    // Teredo: refused whatever it embeds
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['2001::808:808', 'teredo'],
  ];
  for (const [ip, name] of cases) {
    it(`${ip} → ${name}`, () => expect(isDeniedAddress(ip)).toBe(name));
  }

  it('URL-parsed IPv6 hosts (normalised by WHATWG URL) give the same answer', () => {
    for (const [ip, name] of cases) {
      const host = new URL(`http://[${ip.replace(/^\[|\]$/g, '')}]/`).hostname;
      expect(isDeniedAddress(host), `${ip} → ${host}`).toBe(name);
    }
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
  });
});

describe('parseIpv4Loose and legacy IPv4 spellings', () => {
  for (const [target, spellings, range] of [
    ['127.0.0.1', LOOPBACK_SPELLINGS, 'loopback'],
    ['10.0.0.1', TEN_SPELLINGS, 'private'],
  ] as const) {
    it(`every spelling of ${target}: raw string and URL-parsed host`, () => {
      for (const s of spellings) {
        expect(parseIpv4Loose(s), s).toBe(target);
        expect(isDeniedAddress(s), s).toBe(range);
        const host = new URL(`http://${s}:8080/`).hostname;
        expect(host, s).toBe(target);
        expect(isDeniedAddress(host), s).toBe(range);
        expect(checkHookUrl(`https://${s}/hook`, { allowLocal: false }), s).toMatchObject({
          ok: false,
          reason: 'public_host_only',
        });
      }
    });
  }

  it('other spellings', () => {
    expect(parseIpv4Loose('0')).toBe('0.0.0.0');
    expect(parseIpv4Loose('0x')).toBe('0.0.0.0');
    expect(parseIpv4Loose('4294967295')).toBe('255.255.255.255');
    expect(parseIpv4Loose('0xffffffff')).toBe('255.255.255.255');
    expect(parseIpv4Loose('192.168.65535')).toBe('192.168.255.255');
    expect(parseIpv4Loose('169.16689662')).toBe('169.254.169.254');
    expect(parseIpv4Loose('8.8.8.8')).toBe('8.8.8.8');
  });

  it('returns null for what is not IPv4', () => {
    for (const s of [
      '',
      ' ',
      'example.com',
      'localhost',
      '1.2.3.4.5',
      '256.0.0.1',
      '1.2.3.256',
      '1.2.65536',
      '1.16777216',
      '4294967296',
      '08.0.0.1',
      '0x7g.0.0.1',
      '1..2.3',
      '.1.2.3',
      '1.2.3.4..',
      '-1.2.3.4',
      '1e3',
      '::1',
    ]) {
      expect(parseIpv4Loose(s), JSON.stringify(s)).toBeNull();
    }
  });
});

describe('isLoopbackAddress', () => {
  it('127/8, ::1 and mapped 127/8 only', () => {
    for (const ip of ['127.0.0.1', '127.9.9.9', '0x7f.1', '::1', '[::1]', '::ffff:127.0.0.1', '::ffff:7f00:1']) {
      expect(isLoopbackAddress(ip), ip).toBe(true);
    }
    for (const ip of ['10.0.0.1', '0.0.0.0', '::', '64:ff9b::7f00:1', '2002:7f00:1::', '::127.0.0.1', '8.8.8.8', 'localhost']) {
      expect(isLoopbackAddress(ip), ip).toBe(false);
    }
  });
});

describe('checkHookUrl', () => {
  const strict = { allowLocal: false };
  const local = { allowLocal: true };
  const reason = (url: string, opts = strict) => {
    const r = checkHookUrl(url, opts);
    return r.ok ? 'ok' : r.reason;
  };

  it('accepts public https addresses', () => {
    for (const url of [
      'https://example.com/hook',
      'https://hooks.example.org:8443/x?y=1',
      'https://8.8.8.8/',
      'https://[2606:4700::1111]/hook',
      'https://xn--e1afmkfd.xn--p1ai/hook',
      'https://example.com./hook',
    ]) {
      expect(reason(url), url).toBe('ok');
    }
    const r = checkHookUrl('https://Example.COM/Hook', strict);
    expect(r.ok && r.url.hostname).toBe('example.com');
  });

  it('malformed', () => {
    for (const url of ['', 'not a url', '/relative/path', 'https://', 'http://[::1', 'https://exa mple.com/', ' https://example.com/', 'https://[zz::1]/']) {
      expect(reason(url), url).toBe('malformed');
    }
  });

  it('https_only', () => {
    for (const url of ['http://example.com/hook', 'ftp://example.com/', 'ws://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'gopher://example.com/']) {
      expect(reason(url), url).toBe('https_only');
    }
  });

  it('credentials', () => {
    for (const url of ['https://user:pass@example.com/', 'https://user@example.com/', 'https://:pw@example.com/']) {
      expect(reason(url), url).toBe('credentials');
    }
  });

  it('public_host_only: literal IPs in denied ranges and local names', () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://10.0.0.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/',
      'https://[fe80::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:a00:1]/',
      'https://[64:ff9b::7f00:1]/',
      'https://[2002:7f00:1::]/',
      'https://0x7f.1/',
      'https://2130706433/',
      'https://0.0.0.0/',
      'https://localhost/',
      'https://LOCALHOST./',
      'https://foo.localhost/',
      'https://printer.local/',
      'https://db.internal/',
      'https://metadata.google.internal/',
      'https://nas.home.arpa/',
      'https://intranet/',
      'https://router.lan/',
    ]) {
      expect(reason(url), url).toBe('public_host_only');
    }
    const r = checkHookUrl('https://db.internal/', strict);
    expect(!r.ok && r.message).toMatch(/db\.internal/);
  });

  it('allowLocal relaxes loopback only', () => {
    for (const url of [
      'http://127.0.0.1:3000/hook',
      'http://127.0.0.1/',
      'https://127.0.0.1:8443/',
      'http://localhost:3000/hook',
      'http://api.localhost:3000/',
      'http://[::1]:3000/',
      'http://[::ffff:127.0.0.1]:3000/',
      'http://0x7f.1:3000/',
      'https://example.com/hook',
    ]) {
      expect(reason(url, local), url).toBe('ok');
    }
    expect(reason('http://10.0.0.1/', local)).toBe('public_host_only');
    expect(reason('https://10.0.0.1/', local)).toBe('public_host_only');
    expect(reason('http://192.168.1.10:3000/', local)).toBe('public_host_only');
    expect(reason('http://printer.local/', local)).toBe('public_host_only');
    expect(reason('http://[fe80::1]/', local)).toBe('public_host_only');
    expect(reason('http://example.com/', local)).toBe('https_only');
    expect(reason('http://8.8.8.8/', local)).toBe('https_only');
    expect(reason('https://user:pw@127.0.0.1/', local)).toBe('credentials');
    // Without allowLocal, the same loopback addresses are refused.
    expect(reason('http://127.0.0.1:3000/hook')).toBe('public_host_only');
    expect(reason('http://localhost:3000/hook')).toBe('public_host_only');
  });
});

/** A lookup stand-in answering a fixed list, counting calls. */
function fakeLookup(...answers: Array<LookupAddress[] | Error>): ResolveLookup & { calls: string[] } {
  const calls: string[] = [];
  const fn = async (hostname: string) => {
    calls.push(hostname);
    const answer = answers[Math.min(calls.length, answers.length) - 1];
    if (answer instanceof Error) throw answer;
    return answer ?? [];
  };
  return Object.assign(fn, { calls });
}
const v4 = (address: string): LookupAddress => ({ address, family: 4 });
const v6 = (address: string): LookupAddress => ({ address, family: 6 });

describe('resolveAndCheck', () => {
  it('all addresses public → the first one', async () => {
    const lookup = fakeLookup([v4('93.184.216.34'), v6('2606:2800:220:1:248:1893:25c8:1946')]);
    expect(await resolveAndCheck('example.com', { allowLoopback: false, lookup })).toEqual({
      ok: true,
      address: '93.184.216.34',
      family: 4,
    });
    expect(lookup.calls).toEqual(['example.com']);
  });

  it('a mix of public and private is refused, naming the bad address', async () => {
    for (const answer of [
      [v4('93.184.216.34'), v4('10.0.0.1')],
      [v4('10.0.0.1'), v4('93.184.216.34')],
      [v4('93.184.216.34'), v6('::ffff:127.0.0.1')],
      [v6('2606:4700::1111'), v6('fd00::1')],
    ]) {
      const r = await resolveAndCheck('mixed.example', { allowLoopback: false, lookup: fakeLookup(answer) });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.reason).toBe('denied');
        expect(answer.map((a) => a.address)).toContain(r.address);
        expect(r.message).toMatch(/not a public address/);
      }
    }
  });

  it('allowLoopback lets loopback through and nothing else', async () => {
    const loop = [v4('127.0.0.1'), v6('::1'), v6('::ffff:127.0.0.1')];
    expect(await resolveAndCheck('dev.example', { allowLoopback: true, lookup: fakeLookup(loop) })).toEqual({
      ok: true,
      address: '127.0.0.1',
      family: 4,
    });
    expect(await resolveAndCheck('dev.example', { allowLoopback: false, lookup: fakeLookup(loop) })).toMatchObject({
      ok: false,
      reason: 'denied',
      address: '127.0.0.1',
      range: 'loopback',
    });
    for (const bad of ['10.0.0.1', '169.254.169.254', '0.0.0.0', '::', 'fe80::1', '64:ff9b::7f00:1']) {
      const r = await resolveAndCheck('dev.example', { allowLoopback: true, lookup: fakeLookup([v4('127.0.0.1'), { address: bad, family: bad.includes(':') ? 6 : 4 }]) });
      expect(r, bad).toMatchObject({ ok: false, reason: 'denied', address: bad });
    }
  });

  it('IP literals are checked without DNS', async () => {
    const lookup = fakeLookup(new Error('must not be called'));
    expect(await resolveAndCheck('8.8.8.8', { allowLoopback: false, lookup })).toEqual({ ok: true, address: '8.8.8.8', family: 4 });
    expect(await resolveAndCheck('[2606:4700::1111]', { allowLoopback: false, lookup })).toEqual({
      ok: true,
      address: '2606:4700::1111',
      family: 6,
    });
    expect(await resolveAndCheck('0x7f.1', { allowLoopback: true, lookup })).toEqual({ ok: true, address: '127.0.0.1', family: 4 });
    expect(await resolveAndCheck('0x7f.1', { allowLoopback: false, lookup })).toMatchObject({ ok: false, range: 'loopback' });
    expect(await resolveAndCheck('[::1]', { allowLoopback: false, lookup })).toMatchObject({ ok: false, range: 'loopback' });
    expect(await resolveAndCheck('[::1]', { allowLoopback: true, lookup })).toEqual({ ok: true, address: '::1', family: 6 });
    expect(await resolveAndCheck('10.1', { allowLoopback: true, lookup })).toMatchObject({ ok: false, range: 'private' });
    expect(lookup.calls).toEqual([]);
  });

  it('lookup failure, empty answer, junk answer', async () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND nope.example'), { code: 'ENOTFOUND' });
    expect(await resolveAndCheck('nope.example', { allowLoopback: false, lookup: fakeLookup(notFound) })).toMatchObject({
      ok: false,
      reason: 'lookup_failed',
      message: expect.stringMatching(/ENOTFOUND/),
    });
    expect(await resolveAndCheck('empty.example', { allowLoopback: false, lookup: fakeLookup([]) })).toMatchObject({
      ok: false,
      reason: 'no_address',
    });
    expect(await resolveAndCheck('junk.example', { allowLoopback: false, lookup: fakeLookup([v4('not-an-ip')]) })).toMatchObject({
      ok: false,
      reason: 'denied',
      range: 'not-an-ip',
    });
  });

  it('with the real resolver, localhost is loopback', async () => {
    expect(await resolveAndCheck('localhost', { allowLoopback: false })).toMatchObject({ ok: false, reason: 'denied' });
    const r = await resolveAndCheck('localhost', { allowLoopback: true });
    expect(r.ok).toBe(true);
    if (r.ok) expect(isLoopbackAddress(r.address)).toBe(true);
  });
});

describe('pinned connections', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => {
    while (cleanup.length) cleanup.pop()!();
  });

  async function localServer(): Promise<{ port: number; hits: Array<{ host: string | undefined; url: string | undefined }> }> {
    const hits: Array<{ host: string | undefined; url: string | undefined }> = [];
    const server = http.createServer((req, res) => {
      hits.push({ host: req.headers.host, url: req.url });
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => server.close());
    return { port: (server.address() as AddressInfo).port, hits };
  }

  function get(options: http.RequestOptions & { autoSelectFamily?: boolean }): Promise<{ status: number | undefined; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(options, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('pinnedLookup answers both call shapes Node uses', async () => {
    const lookup = pinnedLookup('203.0.113.9', 4);
    const single = await new Promise<unknown[]>((resolve) => lookup('x.test', {}, (...args) => resolve(args)));
    expect(single).toEqual([null, '203.0.113.9', 4]);
    const all = await new Promise<unknown[]>((resolve) => lookup('x.test', { all: true }, (...args) => resolve(args)));
    expect(all).toEqual([null, [{ address: '203.0.113.9', family: 4 }]]);
  });

  it('a request to an unresolvable name arrives at the pinned address: no DNS is used', async () => {
    const { port, hits } = await localServer();
    for (const autoSelectFamily of [true, false]) {
      const res = await get({
        hostname: 'some-name.test',
        port,
        path: '/hook',
        lookup: pinnedLookup('127.0.0.1', 4),
        agent: false,
        autoSelectFamily,
      });
      expect(res).toEqual({ status: 200, body: 'ok' });
    }
    expect(hits).toEqual([
      { host: `some-name.test:${port}`, url: '/hook' },
      { host: `some-name.test:${port}`, url: '/hook' },
    ]);
  });

  it('pinnedRequestOptions keeps the name for Host and TLS, pins the address, no pooled socket', async () => {
    const { port, hits } = await localServer();
    const url = new URL(`http://hooks.some-name.test:${port}/in?x=1`);
    const opts = pinnedRequestOptions(url, { address: '127.0.0.1', family: 4 });
    expect(opts).toMatchObject({ hostname: 'hooks.some-name.test', port, path: '/in?x=1', agent: false, protocol: 'http:' });
    expect(await get(opts)).toEqual({ status: 200, body: 'ok' });
    expect(hits).toEqual([{ host: `hooks.some-name.test:${port}`, url: '/in?x=1' }]);

    const tlsOpts = pinnedRequestOptions(new URL('https://hooks.example.com/x'), { address: '93.184.216.34', family: 4 });
    expect(tlsOpts).toMatchObject({ hostname: 'hooks.example.com', servername: 'hooks.example.com', port: 443 });
    const literal = pinnedRequestOptions(new URL('https://[::1]:8443/x'), { address: '::1', family: 6 });
    expect(literal).toMatchObject({ hostname: '::1', port: 8443 });
    expect(literal.servername).toBeUndefined();
  });

  it('over TLS the original name is sent as SNI while the connection goes to the pinned address', async () => {
    let sni: string | undefined;
    const server = tls.createServer({
      SNICallback: (name, cb) => {
        sni = name;
        cb(new Error('no certificate in this test'));
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => server.close());
    const port = (server.address() as AddressInfo).port;
    const opts = pinnedRequestOptions(new URL(`https://secure.some-name.test:${port}/`), { address: '127.0.0.1', family: 4 });
    await new Promise<void>((resolve) => {
      const req = https.request(opts);
      req.on('error', () => resolve());
      req.end();
    });
    expect(sni).toBe('secure.some-name.test');
  });

  it('a DNS answer that changes between check and connect cannot redirect the delivery', async () => {
    // The attacker's name answers a public address to the check and 127.0.0.1 afterwards.
    const { port, hits } = await localServer();
    const lookup = fakeLookup([v4('93.184.216.34')], [v4('127.0.0.1')]);

    const checked = await resolveAndCheck('rebind.test', { allowLoopback: false, lookup });
    expect(checked).toEqual({ ok: true, address: '93.184.216.34', family: 4 });
    if (!checked.ok) return;

    // Connect through the pin; record where the socket is sent, stop before any byte leaves.
    const url = new URL(`http://rebind.test:${port}/hook`);
    const connectedTo: string[] = [];
    await new Promise<void>((resolve) => {
      const { agent: _agent, ...opts } = pinnedRequestOptions(url, checked);
      const req = http.request({
        ...opts,
        createConnection: (o) => {
          const socket = net.createConnection(o as net.NetConnectOpts);
          socket.on('lookup', (_err, address) => {
            connectedTo.push(address);
            socket.destroy();
          });
          return socket;
        },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.end();
    });
    expect(connectedTo).toEqual(['93.184.216.34']);
    expect(lookup.calls).toEqual(['rebind.test']); // one DNS query: the check's
    expect(hits).toEqual([]); // nothing reached 127.0.0.1

    // For contrast: a client that resolves again at connect time is led to 127.0.0.1.
    const naive = await get({
      hostname: 'rebind.test',
      port,
      path: '/hook',
      agent: false,
      lookup: (hostname, options, cb) => {
        lookup(hostname, { all: true }).then(
          (answer) => {
            const list = Array.isArray(answer) ? answer : [answer];
            if (options.all) cb(null, list);
            else cb(null, list[0]!.address, list[0]!.family);
          },
          (err: NodeJS.ErrnoException) => cb(err, ''),
        );
      },
    });
    expect(naive.status).toBe(200);
    expect(hits).toHaveLength(1);
    expect(lookup.calls).toHaveLength(2);
  });
});
