/**
 * The service's clock: now; advance by 15 min, 1 h, 1 day or a typed duration (sdk/duration.ts); which
 * orders moved. While a scenario run holds the clock's lease the server refuses these moves: the
 * panel shows the run and the lease's end, and a box to move it anyway (`force`).
 */
import { useState } from 'preact/hooks';
import { parseDuration } from '../../sdk/duration.ts';
import { statusName, t, time } from './i18n.ts';
import type { ClockLeaseHeld, Live } from './live.ts';
import { act, field, html } from './ui.ts';

/** The lease a `clock_leased` refusal names (its run and end), or undefined for another error. */
function leaseOf(err: unknown): ClockLeaseHeld | undefined {
  const refusal = (err as { refusal?: { kind?: unknown; holder?: unknown; until?: unknown } }).refusal;
  if (refusal?.kind !== 'clock_leased' || typeof refusal.holder !== 'string' || typeof refusal.until !== 'string') return undefined;
  return { holder: refusal.holder, expiresAt: refusal.until };
}

export function ClockPanel({ live }: { live: Live }) {
  const [force, setForce] = useState(false);
  const advance = async (seconds: number) => {
    const moved = await act(async () => {
      try {
        return await live.sb.advanceClock({ seconds, ...(force ? { force: true } : {}) });
      } catch (err) {
        const lease = leaseOf(err);
        if (!lease) throw err;
        live.lease = lease;
        live.changed();
        throw new Error(t('clock.refused', { holder: lease.holder, time: time(lease.expiresAt) }));
      }
    });
    if (!moved) return;
    live.now = moved.now;
    live.moved = moved.moved;
    live.changed();
  };
  const typed = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const text = field(form, 'duration');
    const seconds = parseDuration(text);
    if (seconds === undefined) return void act(() => Promise.reject(new Error(t('clock.badDuration', { text }))));
    await advance(seconds);
  };
  const moved = live.moved;
  const lease = live.lease && Date.parse(live.lease.expiresAt) > Date.now() ? live.lease : null;
  return html`<section aria-labelledby="clock-h">
    <h2 id="clock-h">${t('clock.heading')}</h2>
    <p data-now=${live.now ?? ''}>${t('clock.now', { time: time(live.now) })}</p>
    ${lease
      ? html`<p data-lease=${lease.holder}>${t('clock.leased', { holder: lease.holder, time: time(lease.expiresAt) })}
          <label><input type="checkbox" name="force" checked=${force} onChange=${(e: Event) => setForce((e.currentTarget as HTMLInputElement).checked)} /> ${t('clock.force')}</label></p>`
      : null}
    <div class="row">
      <button type="button" onClick=${() => advance(15 * 60)}>${t('clock.by15m')}</button>
      <button type="button" onClick=${() => advance(3600)}>${t('clock.by1h')}</button>
      <button type="button" onClick=${() => advance(86_400)}>${t('clock.by1d')}</button>
      <form class="inline" onSubmit=${typed}>
        <label>${t('clock.duration')} <input name="duration" size="8" required /></label>
        <button type="submit">${t('clock.advance')}</button>
      </form>
    </div>
    ${moved === null
      ? null
      : moved.length === 0
        ? html`<p class="muted" data-moved="0">${t('clock.movedNone')}</p>`
        : html`<div data-moved=${moved.length}><p>${t('clock.moved', { count: moved.length })}</p>
            <ul>${moved.map((m) => html`<li data-moved-order=${m.order}>${t('clock.movedLine', { id: m.order, number: m.number, from: statusName(m.from), to: statusName(m.to) })}</li>`)}</ul></div>`}
  </section>`;
}
