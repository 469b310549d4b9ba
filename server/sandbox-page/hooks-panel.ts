/** The open seller's webhooks: the subscription, each delivery with its attempts, body and last headers, Resend; the probe inbox. */
import { useState } from 'preact/hooks';
import { t, time, valueName } from './i18n.ts';
import type { Live } from './live.ts';
import { act, html } from './ui.ts';

export function HooksPanel({ live, sellerId }: { live: Live; sellerId: string }) {
  const [shown, setShown] = useState<string | null>(null);
  const hooks = live.hooks.get(sellerId);
  const inbox = live.probe.get(sellerId) ?? [];
  const deliveries = [...live.deliveries.values()]
    .filter((d) => d.sellerId === sellerId)
    .map((d) => d.delivery)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
  const resend = (id: string) => act(() => live.sb.resendDelivery(sellerId, id), (d) => t('hooks.resent', { id: d.id, attempt: d.attempts }));
  return html`<section aria-labelledby="hooks-h">
    <h2 id="hooks-h">${t('hooks.heading', { id: sellerId })}</h2>
    <h3>${t('hooks.subscription')}</h3>
    ${!hooks || !hooks.url
      ? html`<p class="muted">${t('hooks.noSubscription')}</p>`
      : html`<ul class="facts">
          <li>${t('hooks.url', { url: hooks.url })}</li>
          <li>${t('hooks.events', { list: hooks.events.join(', ') })}</li>
          <li>${t('hooks.status', { status: valueName('hooks.statuses', hooks.status), failures: hooks.failures })}</li>
        </ul>`}
    ${hooks?.probeUrl ? html`<p>${t('hooks.probe', { url: hooks.probeUrl })}</p>` : null}
    <h3>${t('hooks.deliveries')}</h3>
    ${deliveries.length === 0
      ? html`<p class="muted">${t('hooks.none')}</p>`
      : html`<table class="deliveries">
          <thead><tr><th>${t('hooks.id')}</th><th>${t('hooks.event')}</th><th>${t('hooks.attempts')}</th><th>${t('hooks.last')}</th><th>${t('hooks.deliveredAt')}</th><th></th></tr></thead>
          <tbody>
            ${deliveries.map(
              (d) => html`<tr key=${d.id} data-delivery=${d.id} data-event=${d.event} data-attempts=${d.attempts}>
                  <td><code>${d.id}</code>${d.test ? html` <span class="muted">${t('cards.test')}</span>` : null}</td>
                  <td><code>${d.event}</code></td>
                  <td class="num">${d.attempts}</td>
                  <td>${d.lastStatus ?? t('hooks.noAnswer')}${d.lastError ? html` <span class="problem">${d.lastError}</span>` : null}</td>
                  <td>${d.deliveredAt ? time(d.deliveredAt) : d.nextAttemptAt ? t('hooks.next', { time: time(d.nextAttemptAt) }) : t('hooks.notDelivered')}</td>
                  <td class="acts">
                    <button type="button" aria-expanded=${shown === d.id} onClick=${() => setShown(shown === d.id ? null : d.id)}>${t(shown === d.id ? 'hooks.hide' : 'hooks.show', { id: d.id })}</button>
                    <button type="button" aria-label=${t('hooks.resendNamed', { id: d.id })} onClick=${() => resend(d.id)}>${t('hooks.resend')}</button>
                  </td>
                </tr>
                ${shown === d.id
                  ? html`<tr class="detail" data-detail=${d.id}><td colspan="6">
                      <table class="attempts">
                        <thead><tr><th>${t('hooks.attempt')}</th><th>${t('hooks.at')}</th><th>${t('hooks.answer')}</th><th>${t('hooks.error')}</th><th>${t('hooks.took')}</th></tr></thead>
                        <tbody>
                          ${d.attemptLog.map(
                            (a) => html`<tr data-attempt=${a.attempt}><td>${a.attempt}</td><td>${time(a.at)}</td><td>${a.status ?? t('hooks.noAnswer')}</td><td>${a.error ?? ''}</td><td>${t('hooks.ms', { ms: a.durationMs })}</td></tr>`,
                          )}
                        </tbody>
                      </table>
                      <h4>${t('hooks.body')}</h4>
                      <pre class="body">${pretty(d.body)}</pre>
                      <h4>${t('hooks.headers')}</h4>
                      <pre>${d.headers ? Object.entries(d.headers).map(([k, v]) => `${k}: ${v}`).join('\n') : '—'}</pre>
                    </td></tr>`
                  : null}`,
            )}
          </tbody>
        </table>`}
    ${live.moreDeliveries.has(sellerId)
      ? html`<button type="button" data-more-deliveries onClick=${() => act(() => live.readMoreDeliveries(sellerId))}>${t('hooks.more', { id: sellerId })}</button>`
      : null}
    <h3>${t('hooks.inbox')}</h3>
    ${inbox.length === 0
      ? html`<p class="muted">${t('hooks.inboxNone')}</p>`
      : html`<ol class="inbox">
          ${inbox.map(
            (hit) => html`<li>
              <p>${t('hooks.received', { time: time(hit.receivedAt) })}</p>
              <pre>${Object.entries(hit.headers).map(([k, v]) => `${k}: ${v}`).join('\n')}</pre>
              <pre class="body">${pretty(hit.body)}</pre>
            </li>`,
          )}
        </ol>`}
  </section>`;
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
