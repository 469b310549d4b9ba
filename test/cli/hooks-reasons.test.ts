/**
 * Why a webhook delivery did not verify, said from the catalogue (cli/commands/hooks-reasons.ts):
 * every reason the SDK can give has words in both languages, the sentence of each reason carries its
 * data (the header, the skew and the tolerance, the body's path), and a reason a newer SDK adds is
 * shown as its code or as the SDK's message.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WEBHOOK_VERIFICATION_REASONS, WebhookVerificationError } from '../../sdk/webhooks/errors.ts';
import { invalidVerdict, reasonWords, verificationWords } from '../../cli/commands/hooks-reasons.ts';
import { has, useLanguage } from '../../cli/i18n/index.ts';

afterEach(async () => {
  await useLanguage('en');
});

describe('webhook verification reasons in words', () => {
  it.each(['en', 'ru'] as const)('every reason the SDK gives has a few words in %s', async (lang) => {
    await useLanguage(lang);
    for (const reason of WEBHOOK_VERIFICATION_REASONS) {
      expect(has(`hooks.reasons.${reason}`), reason).toBe(true);
      expect(reasonWords(reason)).not.toBe(reason);
    }
  });

  it('says each reason with its data, in Russian', async () => {
    await useLanguage('ru');
    const said = (error: WebhookVerificationError, tolerance?: number) => verificationWords(error, tolerance);
    expect(said(new WebhookVerificationError('malformed_timestamp', 'x', { header: 'x-service-timestamp' }))).toBe('заголовок x-service-timestamp должен быть временем Unix в целых секундах');
    expect(said(new WebhookVerificationError('stale_timestamp', 'x', { skewSeconds: 421.4 }), 300)).toBe('метка времени на 421 с в будущем, вне допуска 300 с (повтор старой доставки или неверные часы)');
    expect(said(new WebhookVerificationError('malformed_body', 'x', { cause: new SyntaxError('Unexpected token') }))).toBe('подпись верна, но тело — не JSON в UTF-8');
    expect(said(new WebhookVerificationError('malformed_body', 'x', { cause: { path: ['data', 'order', 'id'], message: 'expected a string' } }))).toBe(
      'подпись верна, но тело — не известное событие вебхука (в data.order.id)',
    );
    expect(said(new WebhookVerificationError('body_not_raw', 'x'))).toBe('тело должно быть исходным телом запроса, в том виде, как оно пришло');
  });

  it('a reason this CLI does not know: its code in a line, the SDK’s message as a sentence', async () => {
    await useLanguage('ru');
    const later = new WebhookVerificationError('signed_by_a_later_key' as never, 'Webhook signed by a key this SDK does not know.');
    expect(verificationWords(later)).toBe('Webhook signed by a key this SDK does not know.');
    expect(reasonWords('signed_by_a_later_key')).toBe('signed_by_a_later_key');
    expect(invalidVerdict('signed_by_a_later_key')).toBe('неверна: signed_by_a_later_key');
    expect(invalidVerdict('mismatch')).toBe('неверна: mismatch (подпись не совпадает)');
    expect(invalidVerdict(undefined)).toBe('неверна: неизвестно');
  });
});
