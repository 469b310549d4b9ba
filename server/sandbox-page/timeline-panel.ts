/**
 * An order's timeline (created, paid, moves, deadline, delivery, note, messages, vaults without their
 * contents, review) and the buyer's and marketplace's moves that apply in its state now, as the server
 * says (`sandboxMoves`): Pay, Cancel, Accept, Message, Dispute, Resolve, Review.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { money, statusName, t, time, valueName } from './i18n.ts';
import type { Live, OrderTimeline } from './live.ts';
import { act, field, html } from './ui.ts';

export function TimelinePanel({ live, orderId, onClose }: { live: Live; orderId: string; onClose: () => void }) {
  const [line, setLine] = useState<OrderTimeline | null>(null);
  const [acted, setActed] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = line !== null;
  // opened beside its row: the focus goes to its heading, scrolled into view (keyboard users keep their place)
  useEffect(() => {
    if (!shown || !heading.current) return;
    heading.current.focus();
    heading.current.scrollIntoView({ block: 'nearest' });
  }, [orderId, shown]);
  const sb = live.sb;
  // read again whenever an order changed (the stream said so)
  useEffect(() => {
    let gone = false;
    void act(() => sb.orderTimeline(orderId)).then((read) => !gone && read && setLine(read));
    return () => void (gone = true);
  }, [orderId, live.orderChanges, acted]);
  if (!line) return html`<aside class="timeline"><p class="muted">${t('loading')}</p></aside>`;
  const o = line.order;
  const moves = new Set(line.sandboxMoves);
  // after a move, its words in the status line, and the timeline read again
  const done = (what: string) => () => {
    setActed((n) => n + 1);
    return t('timeline.done', { what });
  };
  const withText = (name: string, run: (text: string) => Promise<unknown>, what: string) => async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const text = field(form, name);
    if ((await act(() => run(text), done(what))) !== undefined) form.reset();
  };
  const items: { at: string; text: string }[] = [{ at: o.createdAt, text: t('timeline.created') }];
  if (o.paidAt) items.push({ at: o.paidAt, text: t('timeline.paid') });
  for (const m of line.moves) {
    if (m.action === 'pay') continue;
    items.push({ at: m.at, text: t('timeline.move', { action: t(`action.${m.action}`), by: t(`by.${m.by}`), from: statusName(m.from), to: statusName(m.to) }) });
  }
  if (line.deliveredAt) items.push({ at: line.deliveredAt, text: t('timeline.delivered') });
  for (const msg of line.messages) items.push({ at: msg.at, text: t('timeline.message', { from: valueName('timeline.from', msg.from), text: msg.text }) });
  for (const owner of ['seller', 'buyer'] as const) {
    const v = line.vaults[owner];
    if (v) items.push({ at: v.at, text: t(`timeline.vaultOf.${owner}`, { time: time(v.at), opened: v.opened ? t('timeline.vaultOpened') : t('timeline.vaultClosed') }) });
  }
  if (line.review) items.push({ at: line.review.at, text: t('timeline.reviewLine', { stars: line.review.stars, text: line.review.text }) });
  items.sort((a, b) => a.at.localeCompare(b.at));
  return html`<aside class="timeline" aria-labelledby="tl-h" data-timeline=${o.id}>
    <h3 id="tl-h" tabindex="-1" ref=${heading}>${t('timeline.heading', { id: o.id })} — <span data-status=${o.status}>${statusName(o.status)}</span>, ${money(o.priceRub)}</h3>
    <button type="button" onClick=${onClose}>${t('timeline.close')}</button>
    <ol class="events">
      ${items.map((i) => html`<li><time datetime=${i.at}>${time(i.at)}</time> ${i.text}</li>`)}
    </ol>
    ${line.deadline ? html`<p>${t('timeline.deadline', { kind: t(`timeline.deadlineKind.${line.deadline.kind}`), time: time(line.deadline.at) })}</p>` : null}
    ${line.note ? html`<p>${t('timeline.note', { note: line.note })}</p>` : null}
    ${line.noteRejected ? html`<p class="problem" data-note-withheld>${t('timeline.noteWithheld')}</p>` : null}
    ${line.stockIssued ? html`<p class="muted">${t('timeline.stockIssued')}</p>` : null}
    <h4>${t('timeline.moves')}</h4>
    ${moves.size === 0 ? html`<p class="muted">${t('timeline.noMoves')}</p>` : null}
    <div class="row moves">
      ${moves.has('pay') ? html`<button type="button" onClick=${() => act(() => sb.pay(o.id), done(t('timeline.pay')))}>${t('timeline.pay')}</button>` : null}
      ${moves.has('cancel') ? html`<button type="button" onClick=${() => act(() => sb.cancel(o.id), done(t('timeline.cancel')))}>${t('timeline.cancel')}</button>` : null}
      ${moves.has('accept') ? html`<button type="button" onClick=${() => act(() => sb.accept(o.id), done(t('timeline.accept')))}>${t('timeline.accept')}</button>` : null}
      ${moves.has('resolve')
        ? html`<button type="button" onClick=${() => act(() => sb.resolve(o.id, { winner: 'buyer' }), done(t('timeline.resolveBuyer')))}>${t('timeline.resolveBuyer')}</button>
            <button type="button" onClick=${() => act(() => sb.resolve(o.id, { winner: 'seller' }), done(t('timeline.resolveSeller')))}>${t('timeline.resolveSeller')}</button>`
        : null}
    </div>
    ${moves.has('message')
      ? html`<form class="row" onSubmit=${withText('text', (text) => sb.message(o.id, { text }), t('timeline.sendMessage'))}>
          <label>${t('timeline.messageText')} <input name="text" required maxlength="4000" /></label>
          <button type="submit">${t('timeline.sendMessage')}</button>
        </form>`
      : null}
    ${moves.has('dispute')
      ? html`<form class="row" onSubmit=${withText('text', (text) => sb.dispute(o.id, { text }), t('timeline.dispute'))}>
          <label>${t('timeline.disputeText')} <input name="text" required maxlength="4000" /></label>
          <button type="submit">${t('timeline.dispute')}</button>
        </form>`
      : null}
    ${moves.has('review')
      ? html`<form class="row" onSubmit=${async (e: Event) => {
          e.preventDefault();
          const form = e.currentTarget as HTMLFormElement;
          await act(() => sb.review(o.id, { stars: Number(field(form, 'stars')), text: field(form, 'text') }), done(t('timeline.review')));
        }}>
          <label>${t('timeline.stars')} <select name="stars">${[5, 4, 3, 2, 1].map((n) => html`<option>${n}</option>`)}</select></label>
          <label>${t('timeline.reviewText')} <input name="text" maxlength="2000" /></label>
          <button type="submit">${t('timeline.review')}</button>
        </form>`
      : null}
  </aside>`;
}
