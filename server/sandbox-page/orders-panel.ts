/**
 * Orders, live: every seller's (or one's), of every status (or one); each opens its timeline. The
 * page's `?order=ID` (the link of the autopilot's Timeline button) opens that order's timeline at
 * once: beside its row, or above the table when its row is not listed (not read yet, filtered out).
 */
import { useState } from 'preact/hooks';
import { ORDER_STATUSES } from '../../sdk/contract/constants.ts';
import { money, statusName, t, time } from './i18n.ts';
import type { Live } from './live.ts';
import { TimelinePanel } from './timeline-panel.ts';
import { act, html } from './ui.ts';

export function OrdersPanel({ live }: { live: Live }) {
  const [status, setStatus] = useState('');
  const [seller, setSeller] = useState('');
  const [open, setOpen] = useState<string | null>(linkedOrder);
  // closing the timeline gives the focus back to the button that opened it (and a linked one leaves the URL)
  const close = (id: string) => {
    setOpen(null);
    forgetLinkedOrder(id);
    requestAnimationFrame(() => document.querySelector<HTMLButtonElement>(`button[data-opens="${id}"]`)?.focus());
  };
  const rows = [...live.orders.values()]
    .filter((o) => (!status || o.order.status === status) && (!seller || o.sellerId === seller))
    .sort((a, b) => b.order.createdAt.localeCompare(a.order.createdAt) || b.order.id.localeCompare(a.order.id));
  return html`<section aria-labelledby="orders-h">
    <h2 id="orders-h">${t('orders.heading')} <span class="muted" data-count>${t('orders.count', { count: rows.length })}</span></h2>
    <div class="row">
      <label>${t('orders.status')}
        <select name="status" value=${status} onChange=${(e: Event) => setStatus((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">${t('orders.allStatuses')}</option>
          ${ORDER_STATUSES.map((s) => html`<option value=${s}>${statusName(s)}</option>`)}
        </select>
      </label>
      <label>${t('orders.seller')}
        <select name="seller" value=${seller} onChange=${(e: Event) => setSeller((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">${t('orders.allSellers')}</option>
          ${[...live.sellers.keys()].map((id) => html`<option value=${id}>${id}</option>`)}
        </select>
      </label>
    </div>
    ${open !== null && !rows.some((r) => r.order.id === open)
      ? html`<div class="detail" data-linked-order=${open}><${TimelinePanel} live=${live} orderId=${open} onClose=${() => close(open)} /></div>`
      : null}
    ${rows.length === 0
      ? html`<p class="muted">${t('orders.none')}</p>`
      : html`<table class="orders">
          <thead><tr><th>${t('orders.id')}</th><th>${t('orders.status')}</th><th>${t('orders.card')}</th><th>${t('orders.price')}</th><th>${t('orders.created')}</th><th>${t('orders.seller')}</th><th></th></tr></thead>
          <tbody>
            ${rows.map(
              ({ sellerId, order: o }) => html`<tr key=${o.id} data-order=${o.id} data-number=${o.number} data-status=${o.status}>
                <td><code>${o.id}</code>${o.isTest ? html` <span class="muted">test</span>` : null}</td>
                <td class="status">${statusName(o.status)}</td>
                <td><code>${o.number}</code> ${o.service} / ${o.tariff}</td>
                <td class="num">${money(o.priceRub)}</td>
                <td>${time(o.createdAt)}</td>
                <td><code>${sellerId}</code></td>
                <td><button type="button" data-opens=${o.id} aria-expanded=${open === o.id} onClick=${() => setOpen(open === o.id ? null : o.id)}>${t('orders.open', { id: o.id })}</button></td>
              </tr>
              ${open === o.id
                ? html`<tr key=${`${o.id}-timeline`} class="detail"><td colspan="7"><${TimelinePanel} live=${live} orderId=${o.id} onClose=${() => close(o.id)} /></td></tr>`
                : null}`,
            )}
          </tbody>
        </table>`}
    ${[...live.moreOrders.keys()]
      .filter((id) => !seller || id === seller)
      .map((id) => html`<button type="button" data-more-orders=${id} onClick=${() => act(() => live.readMoreOrders(id))}>${t('orders.more', { id })}</button> `)}
  </section>`;
}

/** The order the page's URL names (`?order=ID`), or null. */
function linkedOrder(): string | null {
  const id = new URLSearchParams(location.search).get('order')?.trim();
  return id ? id : null;
}

/** The linked order's timeline closed: `?order=` leaves the URL (a reload does not open it again). */
function forgetLinkedOrder(id: string): void {
  const url = new URL(location.href);
  if (url.searchParams.get('order') !== id) return;
  url.searchParams.delete('order');
  history.replaceState(history.state, '', url);
}
