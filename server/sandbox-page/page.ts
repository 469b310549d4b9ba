/**
 * The sandbox page (`GET /sandbox`, issue "See the sandbox"): sign in with the admin token, then the
 * sellers, the open seller's cards and webhooks, the orders live, the clock, the faults and the
 * seller's phone (the Telegram emulator's chats). Preact
 * with htm, bundled by scripts/build.mjs through server/sandbox-page/bundle.derived.ts.
 */
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { t } from './i18n.ts';
import { Live } from './live.ts';
import { forgetToken, sandboxClient, saveToken, savedToken, tokenTaken } from './session.ts';
import { act, html, reportTo } from './ui.ts';
import { SellersPanel } from './sellers-panel.ts';
import { CardsPanel } from './cards-panel.ts';
import { OrdersPanel } from './orders-panel.ts';
import { HooksPanel } from './hooks-panel.ts';
import { ClockPanel } from './clock-panel.ts';
import { FaultsPanel } from './faults-panel.ts';
import { TelegramPanel } from './telegram-panel.ts';

function SignIn({ onIn, why }: { onIn: (token: string) => void; why: 'expired' | null }) {
  const [refused, setRefused] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const input = (e.currentTarget as HTMLFormElement).elements.namedItem('token') as HTMLInputElement;
    const token = input.value.trim();
    const ok = await act(() => tokenTaken(token));
    if (ok) {
      input.value = '';
      onIn(token);
    } else if (ok === false) setRefused(true);
  };
  return html`<form class="signin" onSubmit=${submit}>
    <h2>${t('signIn.heading')}</h2>
    ${why ? html`<p role="alert" class="problem" data-why=${why}>${t(`signIn.${why}`)}</p>` : null}
    <p class="muted">${t('signIn.hint')}</p>
    <label>${t('signIn.token')} <input name="token" type="password" autocomplete="off" required /></label>
    <button type="submit">${t('signIn.submit')}</button>
    ${refused ? html`<p role="alert" class="problem">${t('signIn.refused')}</p>` : null}
  </form>`;
}

function Inspector({ token, onOut }: { token: string; onOut: (why: 'expired') => void }) {
  const live = useMemo(() => new Live(sandboxClient(token)), [token]);
  const [, setTick] = useState(0);
  useEffect(() => {
    const stop = new AbortController();
    const off = live.onChange(() => setTick((n) => n + 1));
    void live.follow(stop.signal, () => onOut('expired'));
    return () => {
      off();
      stop.abort();
    };
  }, [live]);
  return html`<div class="inspector">
    <p class=${live.connected ? 'live' : 'live problem'} aria-live="polite">${live.connected ? t('live.on') : live.wasConnected ? t('live.off') : t('live.connecting')}</p>
    <${ClockPanel} live=${live} />
    <${SellersPanel} live=${live} />
    ${live.openSeller ? html`<${CardsPanel} live=${live} sellerId=${live.openSeller} />` : null}
    <${OrdersPanel} live=${live} />
    ${live.openSeller ? html`<${HooksPanel} live=${live} sellerId=${live.openSeller} />` : null}
    <${FaultsPanel} live=${live} />
    <${TelegramPanel} live=${live} />
  </div>`;
}

function App() {
  const [token, setToken] = useState<string | null>(savedToken());
  const [status, setStatus] = useState<{ text: string; problem: boolean } | null>(null);
  // why the sign-in form is back, when the page (not the person) signed out
  const [why, setWhy] = useState<'expired' | null>(null);
  reportTo((text, problem = false) => setStatus({ text, problem }));
  const signIn = (next: string) => {
    setWhy(null);
    saveToken(next);
    setToken(next);
  };
  const signOut = (reason?: 'expired') => {
    forgetToken();
    setToken(null);
    setWhy(reason ?? null);
  };
  return html`<header>
      <h1>${t('title')}</h1>
      <nav>
        <a href=${t('lang.otherHref')} hreflang=${t('lang.otherHref').slice(-2)}>${t('lang.other')}</a>
        ${token ? html` <button type="button" onClick=${() => signOut()}>${t('signIn.signOut')}</button>` : null}
      </nav>
    </header>
    <p id="status" role="status" aria-live="polite" class=${status?.problem ? 'problem' : 'ok'}>${status?.text ?? ''}</p>
    <main>${token ? html`<${Inspector} token=${token} onOut=${signOut} />` : html`<${SignIn} onIn=${signIn} why=${why} />`}</main>`;
}

render(html`<${App} />`, document.getElementById('app')!);
