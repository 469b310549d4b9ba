/** The open seller's cards: price, on/off, test, free and issued stock; create, refill, switch on or off, buy. */
import { PRODUCT_TYPES, DELIVERY_METHODS } from '../../sdk/contract/constants.ts';
import { money, t, valueName } from './i18n.ts';
import type { Live } from './live.ts';
import { act, field, html } from './ui.ts';

export function CardsPanel({ live, sellerId }: { live: Live; sellerId: string }) {
  const sb = live.sb;
  const cards = [...live.cards.values()].filter((c) => c.sellerId === sellerId).map((c) => c.card).sort((a, b) => b.number - a.number);
  const create = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const body = {
      service: field(form, 'service'),
      tariff: field(form, 'tariff'),
      productType: field(form, 'productType') as (typeof PRODUCT_TYPES)[number],
      deliveryMethod: field(form, 'deliveryMethod') as (typeof DELIVERY_METHODS)[number],
      priceRub: Number(field(form, 'priceRub')),
      slaMinutes: Number(field(form, 'slaMinutes')),
      guaranteeDays: Number(field(form, 'guaranteeDays')),
    };
    await act(() => sb.createCard(sellerId, body), (c) => t('cards.created', { number: c.number }));
  };
  const refill = (number: number) => async (e: Event) => {
    e.preventDefault();
    const count = Number(field(e.currentTarget as HTMLFormElement, 'count'));
    await act(() => sb.refill(number, { count }), (r) => t('cards.refilled', { number, count: r.added }));
  };
  const setState = (number: number, active: boolean, autoIssue?: boolean) =>
    act(() => sb.setCardState(number, autoIssue === undefined ? { active } : { active, autoIssue }));
  const buy = (number: number, isTest: boolean) => act(() => sb.createOrder({ number, testBuyer: isTest }), (o) => t('cards.bought', { id: o.id }));
  return html`<section aria-labelledby="cards-h">
    <h2 id="cards-h">${t('cards.heading', { id: sellerId })}</h2>
    <form class="row" onSubmit=${create}>
      <label>${t('cards.service')} <input name="service" value="spotify" required size="12" /></label>
      <label>${t('cards.tariff')} <input name="tariff" value="individual" required size="10" /></label>
      <label>${t('cards.productType')} <select name="productType">${PRODUCT_TYPES.map((p) => html`<option value=${p} selected=${p === 'code'}>${valueName('cards.productTypes', p)}</option>`)}</select></label>
      <label>${t('cards.deliveryMethod')} <select name="deliveryMethod">${DELIVERY_METHODS.map((m) => html`<option value=${m} selected=${m === 'code'}>${valueName('cards.deliveryMethods', m)}</option>`)}</select></label>
      <label>${t('cards.priceRub')} <input name="priceRub" type="number" min="1" value="1299" required /></label>
      <label>${t('cards.slaMinutes')} <input name="slaMinutes" type="number" min="1" value="60" required /></label>
      <label>${t('cards.guaranteeDays')} <input name="guaranteeDays" type="number" min="0" value="7" required /></label>
      <button type="submit">${t('cards.create')}</button>
    </form>
    ${cards.length === 0
      ? html`<p class="muted">${t('cards.none')}</p>`
      : html`<table class="cards">
          <thead><tr><th>${t('cards.number')}</th><th>${t('cards.what')}</th><th>${t('cards.price')}</th><th>${t('cards.state')}</th><th>${t('cards.stock')}</th><th></th></tr></thead>
          <tbody>
            ${cards.map(
              (c) => html`<tr key=${c.number} data-card=${c.number}>
                <td><code>${c.number}</code></td>
                <td>${c.service} / ${c.tariff}<div class="muted" data-kind>${valueName('cards.productTypes', c.productType)}, ${valueName('cards.deliveryMethods', c.deliveryMethod)}</div></td>
                <td class="num">${money(c.priceRub)}</td>
                <td data-state>${c.isActive ? t('cards.on') : t('cards.off')}${c.isTest ? `, ${t('cards.test')}` : ''}${c.autoIssue ? `, ${t('cards.auto')}` : ''}</td>
                <td>${t('cards.stockLine', { free: c.stock.free, issued: c.stock.issued })}</td>
                <td class="acts">
                  <button type="button" aria-label=${t('cards.buyNamed', { number: c.number })} onClick=${() => buy(c.number, c.isTest)}>${t('cards.buy')}</button>
                  ${c.isActive
                    ? html`<button type="button" aria-label=${t('cards.switchOffNamed', { number: c.number })} onClick=${() => setState(c.number, false)}>${t('cards.switchOff')}</button>`
                    : html`<button type="button" aria-label=${t('cards.switchOnNamed', { number: c.number })} onClick=${() => setState(c.number, true, false)}>${t('cards.switchOn')}</button>
                        <button type="button" aria-label=${t('cards.switchOnAutoNamed', { number: c.number })} onClick=${() => setState(c.number, true, true)}>${t('cards.switchOnAuto')}</button>`}
                  <form class="inline" onSubmit=${refill(c.number)}>
                    <label><span class="sr">${t('cards.refillCount', { number: c.number })}</span><input name="count" type="number" min="1" max="1000" value="5" class="count" /></label>
                    <button type="submit" aria-label=${t('cards.refillNamed', { number: c.number })}>${t('cards.refill')}</button>
                  </form>
                </td>
              </tr>`,
            )}
          </tbody>
        </table>`}
    ${live.moreCards.has(sellerId) ? html`<button type="button" data-more-cards onClick=${() => act(() => live.readMoreCards(sellerId))}>${t('cards.more')}</button>` : null}
  </section>`;
}
