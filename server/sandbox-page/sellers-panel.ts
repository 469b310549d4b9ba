/** Sellers: status, admission, keys (prefix and scopes), counts; create one (its key shown once); open one. */
import { useState } from 'preact/hooks';
import { t, time, valueName } from './i18n.ts';
import type { Live } from './live.ts';
import { act, field, html } from './ui.ts';

export function SellersPanel({ live }: { live: Live }) {
  const [created, setCreated] = useState<{ sellerId: string; apiKey: string } | null>(null);
  const create = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const admission = (form.elements.namedItem('admission') as HTMLInputElement).checked ? 'complete' : 'none';
    const mode = field(form, 'mode') === 'test' ? 'test' : 'live';
    const seller = await act(() => live.sb.createSeller({ admission, mode }));
    if (!seller) return;
    setCreated({ sellerId: seller.sellerId, apiKey: seller.apiKey });
    await act(() => live.open(seller.sellerId));
  };
  const sellers = [...live.sellers.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return html`<section aria-labelledby="sellers-h">
    <h2 id="sellers-h">${t('sellers.heading')}</h2>
    <form class="row" onSubmit=${create}>
      <label><input type="checkbox" name="admission" checked /> ${t('sellers.admissionComplete')}</label>
      <label>${t('sellers.mode')} <select name="mode"><option value="live">${t('sellers.modes.live')}</option><option value="test">${t('sellers.modes.test')}</option></select></label>
      <button type="submit">${t('sellers.create')}</button>
    </form>
    ${created
      ? html`<p class="once" role="note" data-created=${created.sellerId}>${t('sellers.keyOnce', { id: created.sellerId })}<code data-key>${created.apiKey}</code></p>`
      : null}
    ${sellers.length === 0
      ? html`<p class="muted">${t('sellers.none')}</p>`
      : html`<table class="sellers">
          <thead><tr><th>${t('sellers.id')}</th><th>${t('sellers.status')}</th><th>${t('sellers.admission')}</th><th>${t('sellers.keys')}</th><th>${t('sellers.cards')}</th><th>${t('sellers.orders')}</th><th>${t('sellers.needsAction')}</th><th></th></tr></thead>
          <tbody>
            ${sellers.map(
              (s) => html`<tr key=${s.sellerId} data-seller=${s.sellerId} class=${live.openSeller === s.sellerId ? 'current' : ''}>
                <td><code>${s.sellerId}</code><div class="muted" data-mode=${s.mode}>${valueName('sellers.modes', s.mode)}, ${time(s.createdAt)}</div></td>
                <td>${t(`sellerStatus.${s.status}`)}</td>
                <td>${s.admission.complete ? t('sellers.complete') : t('sellers.missing', { list: s.admission.missing.join(', ') })}</td>
                <td>${s.keys.map((k) => html`<div key=${k.id}><code>${k.prefix}…</code> ${k.scopes.join(' ')}${k.revoked ? ' ✗' : ''}</div>`)}</td>
                <td data-counts=${`${s.activeCards} / ${s.cards} · ${s.orders}`}>${s.activeCards} / ${s.cards}</td>
                <td>${s.orders}</td>
                <td>${s.needsAction}</td>
                <td>${live.openSeller === s.sellerId
                  ? html`<span class="muted">${t('sellers.opened')}</span>`
                  : html`<button type="button" onClick=${() => act(() => live.open(s.sellerId))}>${t('sellers.open', { id: s.sellerId })}</button>`}</td>
              </tr>`,
            )}
          </tbody>
        </table>`}
  </section>`;
}
