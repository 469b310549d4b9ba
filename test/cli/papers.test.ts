import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, bufferIO, fakeClient, LIVE_KEY, run, scriptedPrompter, tempConfigDir } from './helpers.ts';

let config: ReturnType<typeof tempConfigDir>;
let env: Record<string, string>;
beforeEach(() => {
  config = tempConfigDir();
  env = { SELLER_CONFIG_DIR: config.dir, SERVICE_API_KEY: LIVE_KEY };
});
afterEach(() => config.cleanup());

const BIK = '044525225';
/** Valid at BIK 044525225 (server/seed/registry.ts FIXTURE_ACCOUNTS). */
const ACCOUNT_IP = '40802810838000012345';
const ACCOUNT_COMPANY = '40702810938000012345';
const BAD_ACCOUNT = '40802810838000012346';
const INN_IP = '771234567859';

type SellerType = 'ip' | 'self_employed' | 'company';

const papers = (over: Record<string, unknown> = {}) => ({
  nickname: null,
  offerAccepted: false,
  sellerType: null,
  inn: null,
  registryName: null,
  registryConfirmed: false,
  payout: { method: null, accountTail: null, filled: false },
  complete: false,
  missing: ['nickname', 'offer', 'status', 'registry', 'payout'],
  ...over,
});

const COMPLETE = papers({
  nickname: 'demo-shop',
  offerAccepted: true,
  sellerType: 'ip',
  inn: INN_IP,
  registryName: 'ИП Петров Иван Сергеевич',
  registryConfirmed: true,
  payout: { method: 'account', accountTail: '2345', filled: true },
  complete: true,
  missing: [],
});

/** A client whose `papers` section is the stubs; `made` counts how often a client was built. */
function clientOf(stubs: Record<string, unknown>) {
  const made = vi.fn(() => fakeClient({ papers: stubs }));
  return made;
}

/** A payout section: `get` answers the seller type, `setPayout` answers a tail. */
function payoutStubs(sellerType: SellerType | null) {
  const get = vi.fn(async () => papers({ sellerType }));
  const setPayout = vi.fn(async (body: { method: string; account?: string }) => ({
    method: body.method,
    accountTail: body.account ? body.account.slice(-4) : null,
    filled: true,
  }));
  return { get, setPayout };
}

describe('seller papers show', () => {
  it('lists what is missing with the command that fixes each', async () => {
    const client = clientOf({ get: async () => papers() });
    const result = await run(['papers', 'show'], bufferIO({ env }), { client });
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/Admission:\s+incomplete/);
    expect(result.out).toContain('Missing:');
    expect(result.out).toMatch(/nickname\s+→\s+seller papers nickname NAME/);
    expect(result.out).toMatch(/seller offer not accepted\s+→\s+seller papers accept-offer/);
    expect(result.out).toContain('seller papers status --type ip|self_employed|company --inn INN');
    expect(result.out).toContain('seller papers confirm-registry');
    expect(result.out).toContain('seller papers payout --method account --bik BIK --account ACCOUNT --name NAME');
  });

  it('names the KPP for a company and SBP for the self-employed', async () => {
    const company = await run(['papers', 'show'], bufferIO({ env }), {
      client: clientOf({ get: async () => papers({ sellerType: 'company', inn: '7701234560', missing: ['payout'] }) }),
    });
    expect(company.out).toContain('--kpp KPP');
    const self = await run(['papers', 'show'], bufferIO({ env }), {
      client: clientOf({ get: async () => papers({ sellerType: 'self_employed', missing: ['payout'] }) }),
    });
    expect(self.out).toContain('--method sbp --phone PHONE --name NAME');
  });

  it('says complete, shows only the account tail, and lists nothing missing', async () => {
    const result = await run(['papers', 'show'], bufferIO({ env }), { client: clientOf({ get: async () => COMPLETE }) });
    expect(result.out).toMatch(/Admission:\s+complete/);
    expect(result.out).toMatch(/Payout:\s+bank account ending 2345/);
    expect(result.out).not.toContain('Missing');
  });

  it('with --json prints the answer', async () => {
    const result = await run(['--json', 'papers', 'show'], bufferIO({ env }), { client: clientOf({ get: async () => COMPLETE }) });
    expect(JSON.parse(result.out)).toEqual(COMPLETE);
  });
});

describe('seller papers nickname / accept-offer', () => {
  it('sets the nickname', async () => {
    const setNickname = vi.fn(async (b: { nickname: string }) => b);
    const result = await run(['papers', 'nickname', 'demo-shop'], bufferIO({ env }), { client: clientOf({ setNickname }) });
    expect(result).toMatchObject({ code: 0, out: 'Nickname set: demo-shop\n' });
    expect(setNickname).toHaveBeenCalledWith({ nickname: 'demo-shop' });
  });

  it('refuses a malformed nickname before any call (exit 2)', async () => {
    const client = clientOf({});
    const result = await run(['papers', 'nickname', 'a b'], bufferIO({ env }), { client });
    expect(result.code).toBe(2);
    expect(result.err).toContain('not allowed');
    expect(client).not.toHaveBeenCalled();
  });

  it('explains a taken nickname', async () => {
    const setNickname = async () => {
      throw apiError(409, { error: 'rejected', refusal: { kind: 'nickname_taken', field: 'nickname' } });
    };
    const result = await run(['papers', 'nickname', 'taken'], bufferIO({ env }), { client: clientOf({ setNickname }) });
    expect(result.code).toBe(1);
    expect(result.err).toContain('nickname_taken');
    expect(result.err).toContain('choose another one');
  });

  it('names the missing NAME without a terminal', async () => {
    const result = await run(['papers', 'nickname'], bufferIO({ env }), { client: clientOf({}) });
    expect(result.code).toBe(2);
    expect(result.err).toContain('NAME is required');
  });

  it('accepts the offer', async () => {
    const acceptOffer = vi.fn(async () => ({ offerAccepted: true, acceptedAt: '2026-01-01T00:00:00.000Z' }));
    const result = await run(['papers', 'accept-offer'], bufferIO({ env }), { client: clientOf({ acceptOffer }) });
    expect(result).toMatchObject({ code: 0, out: 'Seller offer accepted (2026-01-01T00:00:00.000Z).\n' });
  });
});

describe('seller papers status', () => {
  it('checks the INN offline and fails before any call with the reason (exit 2)', async () => {
    const client = clientOf({});
    const bad = await run(['papers', 'status', '--type', 'ip', '--inn', '771234567850'], bufferIO({ env }), { client });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--inn: the second INN check digit (the 12th) does not match (inn_bad)');
    const wrongLength = await run(['papers', 'status', '--type', 'company', '--inn', INN_IP], bufferIO({ env }), { client });
    expect(wrongLength.code).toBe(2);
    expect(wrongLength.err).toContain("a company's INN has 10 digits, not 12 (inn_bad)");
    expect(client).not.toHaveBeenCalled();
  });

  it('names the missing flags without a terminal', async () => {
    const client = clientOf({});
    const result = await run(['papers', 'status', '--inn', INN_IP], bufferIO({ env }), { client });
    expect(result.code).toBe(2);
    expect(result.err).toContain('missing flags: --type');
    expect(client).not.toHaveBeenCalled();
  });

  it('prints the registry name and how to confirm it', async () => {
    const setStatus = vi.fn(async (b: { sellerType: string; inn: string }) => ({ ...b, registryName: 'ИП Петров Иван Сергеевич', needsConfirm: true }));
    const result = await run(['papers', 'status', '--type', 'ip', '--inn', INN_IP], bufferIO({ env }), { client: clientOf({ setStatus }) });
    expect(result.code).toBe(0);
    expect(setStatus).toHaveBeenCalledWith({ sellerType: 'ip', inn: INN_IP });
    expect(result.out).toContain('Registry name: ИП Петров Иван Сергеевич');
    expect(result.err).toContain('confirm with `seller papers confirm-registry`');
  });

  it('asks for the type and INN on a terminal, again after a bad INN', async () => {
    const setStatus = vi.fn(async (b: { sellerType: string; inn: string }) => ({ ...b, registryName: 'X', needsConfirm: false }));
    const prompter = scriptedPrompter({ text: ['ip', '123', INN_IP] });
    const result = await run(['papers', 'status'], bufferIO({ env, tty: true }), { client: clientOf({ setStatus }), prompter });
    expect(result.code).toBe(0);
    expect(prompter.asked).toHaveLength(3);
    expect(result.err).toContain('the INN must have 10 digits');
    expect(setStatus).toHaveBeenCalledWith({ sellerType: 'ip', inn: INN_IP });
  });
});

describe('seller papers confirm-registry', () => {
  it('confirms, and says so when it was done before', async () => {
    const first = await run(['papers', 'confirm-registry'], bufferIO({ env }), { client: clientOf({ confirmRegistry: async () => ({ confirmed: true, already: false }) }) });
    expect(first.out).toBe('Registry name confirmed.\n');
    const again = await run(['papers', 'confirm-registry'], bufferIO({ env }), { client: clientOf({ confirmRegistry: async () => ({ confirmed: true, already: true }) }) });
    expect(again.out).toBe('The registry name was already confirmed.\n');
  });

  it('without a status points at `papers status`', async () => {
    const confirmRegistry = async () => {
      throw apiError(409, { error: 'rejected', refusal: { kind: 'no_status', field: 'status' } });
    };
    const result = await run(['papers', 'confirm-registry'], bufferIO({ env }), { client: clientOf({ confirmRegistry }) });
    expect(result.code).toBe(1);
    expect(result.err).toContain('seller papers status --type');
  });
});

describe('seller papers payout', () => {
  it('sends only the fields of the account method and prints only the tail', async () => {
    const stubs = payoutStubs('ip');
    const result = await run(['papers', 'payout', '--method', 'account', '--bik', BIK, '--account', ACCOUNT_IP, '--name', 'ИП Петров'], bufferIO({ env }), {
      client: clientOf(stubs),
    });
    expect(result.code).toBe(0);
    expect(stubs.setPayout).toHaveBeenCalledWith({ method: 'account', bik: BIK, account: ACCOUNT_IP, name: 'ИП Петров' });
    expect(result.out).toBe('Payout details saved: bank account ending 2345.\n');
    expect(result.out + result.err).not.toContain(ACCOUNT_IP);
  });

  it('on a terminal asks only for the fields the account method needs', async () => {
    const stubs = payoutStubs('ip');
    const prompter = scriptedPrompter({ text: [BIK, `${ACCOUNT_IP.slice(0, 10)} ${ACCOUNT_IP.slice(10)}`, 'ИП Петров'] });
    const result = await run(['papers', 'payout', '--method', 'account'], bufferIO({ env, tty: true }), { client: clientOf(stubs), prompter });
    expect(result.code).toBe(0);
    expect(prompter.asked).toEqual(['BIK of the bank (9 digits)', 'Account number (20 digits)', 'Recipient, exactly as the bank has it']);
    expect(stubs.setPayout).toHaveBeenCalledWith({ method: 'account', bik: BIK, account: ACCOUNT_IP, name: 'ИП Петров' });
    expect(result.out + result.err).not.toContain(ACCOUNT_IP);
  });

  it('asks a company for the KPP as well', async () => {
    const stubs = payoutStubs('company');
    const prompter = scriptedPrompter({ text: ['773601001', 'ООО Ромашка'] });
    const result = await run(['papers', 'payout', '--method', 'account', '--bik', BIK, '--account', ACCOUNT_COMPANY], bufferIO({ env, tty: true }), {
      client: clientOf(stubs),
      prompter,
    });
    expect(result.code).toBe(0);
    expect(prompter.asked).toEqual(['KPP (9 characters)', 'Recipient, exactly as the bank has it']);
    expect(stubs.setPayout).toHaveBeenCalledWith({ method: 'account', bik: BIK, account: ACCOUNT_COMPANY, kpp: '773601001', name: 'ООО Ромашка' });
  });

  it('on a terminal asks the self-employed for the phone and name only (SBP), and normalises the phone', async () => {
    const stubs = payoutStubs('self_employed');
    const prompter = scriptedPrompter({ text: ['+7 (999) 123-45-67', 'Смирнова Анна'] });
    const result = await run(['papers', 'payout', '--method', 'sbp'], bufferIO({ env, tty: true }), { client: clientOf(stubs), prompter });
    expect(result.code).toBe(0);
    expect(prompter.asked).toEqual(['Phone for SBP (e.g. +7 999 123-45-67)', 'Recipient, exactly as the bank has it']);
    expect(stubs.setPayout).toHaveBeenCalledWith({ method: 'sbp', phone: '79991234567', name: 'Смирнова Анна' });
    expect(result.out).toBe('Payout details saved: SBP by phone.\n');
  });

  it('without a terminal names the missing flags of the method, and only those', async () => {
    const stubs = payoutStubs('ip');
    const account = await run(['papers', 'payout', '--method', 'account', '--name', 'X'], bufferIO({ env }), { client: clientOf(stubs) });
    expect(account.code).toBe(2);
    expect(account.err).toContain('missing flags: --bik --account (or --account-file)');
    expect(account.err).not.toContain('--phone');
    const company = payoutStubs('company');
    const kpp = await run(['papers', 'payout', '--method', 'account', '--bik', BIK, '--account', ACCOUNT_COMPANY, '--name', 'X'], bufferIO({ env }), {
      client: clientOf(company),
    });
    expect(kpp.code).toBe(2);
    expect(kpp.err).toContain('missing flags: --kpp');
    const self = payoutStubs('self_employed');
    const sbp = await run(['papers', 'payout', '--method', 'sbp'], bufferIO({ env }), { client: clientOf(self) });
    expect(sbp.code).toBe(2);
    expect(sbp.err).toContain('missing flags: --phone --name');
    expect(sbp.err).not.toContain('--bik');
    for (const s of [stubs, company, self]) expect(s.setPayout).not.toHaveBeenCalled();
  });

  it('without a terminal and without --method names --method', async () => {
    const result = await run(['papers', 'payout'], bufferIO({ env }), { client: clientOf({}) });
    expect(result.code).toBe(2);
    expect(result.err).toContain('--method is required');
  });

  it('refuses a bad account before any call, without echoing it (exit 2)', async () => {
    const client = clientOf({});
    const result = await run(['papers', 'payout', '--method', 'account', '--bik', BIK, '--account', BAD_ACCOUNT, '--name', 'X'], bufferIO({ env }), { client });
    expect(result.code).toBe(2);
    expect(result.err).toContain('--account: the account ending 2346 fails the control-digit check with this BIK (account_bad)');
    expect(result.err).not.toContain(BAD_ACCOUNT);
    expect(client).not.toHaveBeenCalled();
  });

  it('refuses a bad BIK, a short account and a bad SBP phone before any call', async () => {
    const client = clientOf({});
    const bik = await run(['papers', 'payout', '--method', 'account', '--bik', '123456789', '--account', ACCOUNT_IP, '--name', 'X'], bufferIO({ env }), { client });
    expect(bik.code).toBe(2);
    expect(bik.err).toContain('--bik: the BIK must begin with 04');
    const short = await run(['papers', 'payout', '--method', 'account', '--account', '123'], bufferIO({ env }), { client });
    expect(short.code).toBe(2);
    expect(short.err).toContain('(account_bad)');
    const phone = await run(['papers', 'payout', '--method', 'sbp', '--phone', '+1 555 123 4567', '--name', 'X'], bufferIO({ env }), { client });
    expect(phone.code).toBe(2);
    expect(phone.err).toContain('--phone: the phone number must begin with 7 (phone_format)');
    expect(client).not.toHaveBeenCalled();
  });

  it('refuses fields of the other method', async () => {
    const client = clientOf({});
    const result = await run(['papers', 'payout', '--method', 'sbp', '--bik', BIK, '--phone', '79991234567'], bufferIO({ env }), { client });
    expect(result.code).toBe(2);
    expect(result.err).toContain('--bik does not go with --method sbp');
    expect(client).not.toHaveBeenCalled();
  });

  it('refuses SBP for a seller who is not self-employed before sending', async () => {
    const stubs = payoutStubs('ip');
    const result = await run(['papers', 'payout', '--method', 'sbp', '--phone', '79991234567', '--name', 'X'], bufferIO({ env }), { client: clientOf(stubs) });
    expect(result.code).toBe(2);
    expect(result.err).toContain('(sbp_only_self)');
    expect(result.err).toContain('use --method account');
    expect(stubs.setPayout).not.toHaveBeenCalled();
  });

  it('refuses a KPP for a seller who is not a company', async () => {
    const stubs = payoutStubs('ip');
    const result = await run(['papers', 'payout', '--method', 'account', '--bik', BIK, '--account', ACCOUNT_IP, '--kpp', '773601001', '--name', 'X'], bufferIO({ env }), {
      client: clientOf(stubs),
    });
    expect(result.code).toBe(2);
    expect(result.err).toContain('--kpp is only for a company');
    expect(stubs.setPayout).not.toHaveBeenCalled();
  });

  it('reads the account from stdin with --account-file -', async () => {
    const stubs = payoutStubs('ip');
    const result = await run(['papers', 'payout', '--method', 'account', '--bik', BIK, '--account-file', '-', '--name', 'X'], bufferIO({ env, stdin: `${ACCOUNT_IP}\n` }), {
      client: clientOf(stubs),
    });
    expect(result.code).toBe(0);
    expect(stubs.setPayout).toHaveBeenCalledWith({ method: 'account', bik: BIK, account: ACCOUNT_IP, name: 'X' });
  });

  it('a server refusal gets a hint', async () => {
    const stubs = {
      get: async () => papers({ sellerType: 'ip' }),
      setPayout: async () => {
        throw apiError(409, { error: 'rejected', refusal: { kind: 'account_bad', field: 'account' } });
      },
    };
    const result = await run(['papers', 'payout', '--method', 'account', '--bik', BIK, '--account', ACCOUNT_IP, '--name', 'X'], bufferIO({ env }), { client: clientOf(stubs) });
    expect(result.code).toBe(1);
    expect(result.err).toContain('refused: account_bad');
    expect(result.err).toContain('hint: check the account number and the BIK');
  });

  it('with --json prints the answer', async () => {
    const stubs = payoutStubs('ip');
    const result = await run(['--json', 'papers', 'payout', '--method', 'account', '--bik', BIK, '--account', ACCOUNT_IP, '--name', 'X'], bufferIO({ env }), {
      client: clientOf(stubs),
    });
    expect(JSON.parse(result.out)).toEqual({ method: 'account', accountTail: '2345', filled: true });
  });
});
