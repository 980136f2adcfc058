/* ReadingProgress web tracker: see docs/tracker.md */
(() => {
  const w = window, d = document, E = d.documentElement, me = d.currentScript, M = Math, now = Date.now,
    safe = f => (...a) => { try { return f(...a) } catch (e) {} },
    on = (t, f, o) => w.addEventListener(t, safe(f), o);
  if (w.readingProgress) return; // loaded twice
  const api = w.readingProgress = { flush() {}, track() {} };
  if (!me || navigator.globalPrivacyControl) return;
  safe(() => {
    const data = k => me.getAttribute('data-' + k), reader = data('reader') || void 0,
      url = (data('endpoint') || new URL('.', me.src).href).replace(/\/*(v1\/events)?$/, '/v1/events'),
      current = () => data('article') || location.pathname,
      find = () => { try { return d.querySelector(data('selector') || 'article') } catch (e) {} },
      overflow = e => getComputedStyle(e).overflowY;
    let article, sent, best, last, peak, lastEl, hidden, timer, manual, active, mark = now(), input = -2e4, engaged = 0;

    // In the article's nearest scrolling ancestor (or itself), else the window.
    const measure = () => {
      let a = lastEl = find(), s = a;
      while (s && s != E && !(s.scrollHeight > s.clientHeight && /auto|scroll|overlay/.test(overflow(s))
          && (s != d.body || overflow(E) != 'visible'))) s = s.parentElement;
      const win = !s || s == E, c = win ? d.scrollingElement : s,
        top = (win ? 0 : c.getBoundingClientRect().top + c.clientTop) - c.scrollTop;
      last = { contentOffset: { x: c.scrollLeft, y: c.scrollTop },
        contentSize: { width: c.scrollWidth, height: c.scrollHeight },
        containerSize: { width: c.clientWidth, height: c.clientHeight } };
      if (a && a != c) {
        const r = a.getBoundingClientRect(), start = M.max(0, r.top - top), end = M.min(c.scrollHeight, r.bottom - top);
        if (start < end) last.region = { start, end };
      }
      if (!peak || last.contentOffset.y >= peak.contentOffset.y) peak = last;
    };

    // Engaged: visible, focused, input within 15 s.
    const account = () => {
      const t = now();
      if (active) engaged += M.max(0, M.min(t, input + 15e3) - mark);
      mark = t;
      active = !d.hidden && d.hasFocus();
    };
    const touched = () => { account(); input = mark };

    // The deepest point since the previous event.
    const send = fresh => {
      if (d.prerendering) return; // not seen yet, perhaps never to be
      fresh && measure();
      const g = peak || last;
      peak = 0;
      account();
      const body = JSON.stringify({ ...g, article, reader,
        engagedMs: M.min(864e5, M.round(engaged)), id: crypto.getRandomValues(new Uint32Array(4)).join('-') });
      engaged = 0; sent = 1; best = M.max(best, g.contentOffset.y);
      try { if (navigator.sendBeacon(url, body)) return } catch (e) {}
      fetch(url, { method: 'POST', body, keepalive: true, mode: 'no-cors' }).catch(() => {});
    };
    const stop = () => timer = clearTimeout(timer);
    const tick = () => { stop(); measure(); (!sent || peak.contentOffset.y > best) && send() };
    const start = (id, delay) => {
      stop(); account(); engaged = 0;
      article = id; sent = hidden = best = peak = 0;
      if (delay >= 0) timer = setTimeout(safe(tick), delay);
    };
    // Measured now only if the article is still on the page.
    const end = () => { stop(); sent && send(lastEl == find()) };
    const hide = () => { hidden || (hidden = 1, stop(), send(1)) };
    const changed = () => { manual || current() == article || (end(), start(current(), 300)) };

    const passive = { capture: true, passive: true };
    for (const t of ['keydown', 'pointerdown', 'pointermove']) on(t, touched, passive);
    on('scroll', () => { touched(); measure(); timer || (timer = setTimeout(safe(tick), 3e3)) }, passive);
    on('blur', account);
    on('visibilitychange', () => d.hidden ? hide() : hidden = 0);
    on('pagehide', hide);
    on('pageshow', e => e.persisted && start(current(), 0));
    on('popstate', changed);
    d.addEventListener('prerenderingchange', safe(() => start(current(), 0)));
    for (const k of ['pushState', 'replaceState']) {
      const f = history[k];
      history[k] = function (...a) { const r = f.apply(this, a); safe(changed)(); return r };
    }
    api.flush = safe(() => send(1));
    api.track = safe(id => { manual = 1; end(); start('' + (id || current()), 0) });

    account();
    start(current());
    d.readyState == 'complete' ? tick() : on('load', tick);
  })();
})();
