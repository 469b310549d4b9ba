/**
 * The SDK's offline checks (sdk/validate: INN, KPP, BIK, account, phone, payout) answer English
 * developer text in `detail`. A person reading Russian gets the same finding in Russian: the
 * known forms of those details are matched here and re-said from the catalogue (`checks.*`), the
 * numbers they carry kept. A detail of a form not known here is shown as it came.
 * test/cli/i18n-checks.test.ts holds every detail the SDK can give to these forms.
 */
import { language, t } from './index.ts';

type Form = [RegExp, string, (match: RegExpMatchArray) => Record<string, string>];

const none = () => ({});

const FORMS: Form[] = [
  [/^The BIK is missing\.$/, 'bikMissing', none],
  [/^The BIK must consist of digits only\.$/, 'bikDigits', none],
  [/^The BIK must have 9 digits, not (\d+)\.$/, 'bikLength', (m) => ({ length: m[1]! })],
  [/^The BIK must begin with 04 \(a Russian bank\)\.$/, 'bikPrefix', none],
  [/^The account number is missing\.$/, 'accountMissing', none],
  [/^The account number must consist of digits only\.$/, 'accountDigits', none],
  [/^The account number must have 20 digits, not (\d+)\.$/, 'accountLength', (m) => ({ length: m[1]! })],
  [/^The account ending (\d+) fails the control-digit check with BIK (\d+)\.$/, 'accountControl', (m) => ({ tail: m[1]!, bik: m[2]! })],
  [/^The INN is missing\.$/, 'innMissing', none],
  [/^The INN must consist of digits only\.$/, 'innDigits', none],
  [/^The INN must have 10 digits \(company\) or 12 digits \(sole trader, self-employed\), not (\d+)\.$/, 'innLength', (m) => ({ length: m[1]! })],
  [/^A company's INN has 10 digits, not 12\.$/, 'innCompany', none],
  [/^The INN of a sole trader or a self-employed person has 12 digits, not 10\.$/, 'innPerson', none],
  [/^The INN check digit \(the 10th\) does not match\.$/, 'innCheck10', none],
  [/^The first INN check digit \(the 11th\) does not match\.$/, 'innCheck11', none],
  [/^The second INN check digit \(the 12th\) does not match\.$/, 'innCheck12', none],
  [/^A company needs a KPP\.$/, 'kppMissing', none],
  [/^The KPP must have 9 characters, not (\d+)\.$/, 'kppLength', (m) => ({ length: m[1]! })],
  [/^The KPP must be 4 digits, then 2 digits or capital Latin letters, then 3 digits\.$/, 'kppForm', none],
  [/^The phone number is missing\.$/, 'phoneMissing', none],
  [/^The phone number must be 11 digits only, without \+, spaces, dashes or brackets\.$/, 'phoneDigits', none],
  [/^The phone number must have 11 digits, not (\d+)\.$/, 'phoneLength', (m) => ({ length: m[1]! })],
  [/^The phone number must begin with 7\.$/, 'phonePrefix', none],
  [/^The payout method must be 'account' or 'sbp'\.$/, 'payoutMethod', none],
  [/^Payouts by phone \(SBP\) are only for self-employed sellers\.$/, 'sbpOnlySelf', none],
  [/^The recipient name, exactly as the bank has it, is required\.$/, 'nameNeeded', none],
];

/** The catalogue key a detail of the SDK's checks has, if its form is known (for tests). */
export function checkKey(detail: string): string | undefined {
  return FORMS.find(([pattern]) => pattern.test(detail))?.[1];
}

/** A check's `detail` in the active language. */
export function checkDetail(detail: string): string {
  if (language() === 'en') return detail;
  for (const [pattern, key, values] of FORMS) {
    const match = pattern.exec(detail);
    if (match) return t(`checks.${key}`, values(match));
  }
  return detail;
}
