/* ReadingProgress web tracker: see docs/tracker.md. This is the readable source; the files served
   are terser's builds of it (scripts/build-tracker): tracker.js with BAR true (it draws the bar
   that data-bar asks for), tracker-lite.js with BAR false (no bar). Every binding is `let`, and
   `true` is written 1 where a boolean is all that is read: one keyword and one digit compress
   better, and the bytes gzipped are a feature (docs/tracker.md, "Builds and size"). */
(() => {
  let w = window, d = document, E = d.documentElement, me = d.currentScript, M = Math, now = Date.now,
    safe = f => (...a) => { try { return f(...a) } catch (e) {} },
    on = (t, f, o) => w.addEventListener(t, safe(f), o);
  if (w.readingProgress) return; // loaded twice
  let api = w.readingProgress = { flush() {}, track() {} };
  if (!me) return;
  safe(() => {
    let data = k => me.getAttribute('data-' + k), reader = data('reader') || void 0,
      url = (data('endpoint') || new URL('.', me.src).href).replace(/\/*(v1\/events)?$/, '/v1/events'),
      current = () => data('article') || location.pathname,
      find = safe(() => d.querySelector(data('selector') || 'article')),
      overflow = e => getComputedStyle(e).overflowY,
      // White space and control characters collapsed, then at most n bytes of UTF-8: a character
      // the cut splits decodes as U+FFFD, dropped (as lone surrogates are encoded as U+FFFD).
      cut = (s, n) => new TextDecoder().decode(new TextEncoder().encode(s.replace(/[\s\0-\x1f\x7f-\x9f]+/g, ' ').trim())
        .slice(0, n)).replace(/\ufffd$/, ''),
      // The campaign in the page's address, else the host of another site that linked here.
      source = safe(() => {
        let u = new URLSearchParams(location.search).get('utm_source'), h = u || new URL(d.referrer).hostname,
          x = '.' + h, y = '.' + location.hostname;
        return (u || !x.endsWith(y) && !y.endsWith(x)) && cut(h, 100);
      })() || void 0;
    if (navigator.globalPrivacyControl) return;
    // G: the last measurement's body along the content (start, end), scroll position, visible
    // height and where the content's top is in the viewport.
    let article, sent, best, last, peak, lastEl, hidden, timer, manual, active, frame, map, G, seen,
      mark = now(), input = -2e4, engaged = 0, draw, ticks;

    // In the article's nearest scrolling ancestor (or itself), else the window.
    let measure = () => {
      let a = lastEl = find(), s = a;
      while (s && s != E && !(s.scrollHeight > s.clientHeight && /auto|scroll|overlay/.test(overflow(s))
          && (s != d.body || overflow(E) != 'visible'))) s = s.parentElement;
      let win = !s || s == E, c = win ? d.scrollingElement : s, y = c.scrollTop, C = c.scrollHeight,
        V = c.clientHeight, o = (win ? 0 : c.getBoundingClientRect().top + c.clientTop) - y;
      last = { contentOffset: { x: c.scrollLeft, y }, contentSize: { width: c.scrollWidth, height: C },
        containerSize: { width: c.clientWidth, height: V } };
      G = [0, C, y, V, o];
      if (a && a != c) {
        let r = a.getBoundingClientRect(), start = M.max(0, r.top - o), end = M.min(C, r.bottom - o);
        if (start < end) last.region = { start, end }, G[0] = start, G[1] = end;
      }
      if (!peak || y >= peak.contentOffset.y) peak = last;
      BAR && draw?.();
    };
    // Measured, then an event a few seconds later; with the bar once a frame however many scroll
    // events came.
    let later = () => { measure(); timer || (timer = setTimeout(tick, 3e3)) },
      soon = BAR ? () => frame || (frame = requestAnimationFrame(safe(() => { frame = 0; later() }))) : later;

    // The article's headings where they start in its body, each with the words up to the next.
    let sections = () => {
      let out = [], kept = [], [s, e, , , o] = G, root = lastEl || d.body;
      let prev = -1;
      for (let h of safe(() => root.querySelectorAll(data('sections') || 'h2,h3'))() || []) {
        let r = h.getBoundingClientRect(), title = cut(h.textContent, 200), start = M.max(0, (r.top - o - s) / (e - s));
        r.height && title && start > prev && start < 1 && kept.push(h) < 65 && out.push({ title, start: prev = start });
      }
      out.map((x, i, r) => {
        (r = new Range).setStartAfter(kept[i]);
        kept[++i] ? r.setEndBefore(kept[i]) : r.setEndAfter(root);
        x.words = ('' + r).split(/\S+/).length - 1;
      });
      return out;
    };

    // Engaged: visible, focused, input within 15 s; every twentieth of the body in view then
    // accrues the same time.
    let account = () => {
      let t = now(), ms = active ? M.max(0, M.min(t, input + 15e3) - mark) : 0;
      engaged += ms;
      if (ms && G) for (let [s, e, y, V] = G, b = (e - s) / 20, i = 0; i < 20; i++)
        s + i * b < y + V && s + i * b + b > y && (seen[i] += ms);
      mark = t;
      active = !d.hidden && d.hasFocus();
    };
    let touched = () => { account(); input = mark };
    let afresh = () => { engaged = 0; seen = Array(20).fill(0) };

    // The deepest point since the previous event; the headings when they changed.
    let send = fresh => {
      if (d.prerendering) return; // not seen yet, perhaps never to be
      fresh && measure();
      account();
      let g = peak || last,
        event = { ...g, article, reader, source, engagedMs: engaged, attention: seen,
          id: crypto.getRandomValues(new Uint32Array(4)).join('-') },
        headings = data('sections') != 'none' && lastEl == find() && sections(), text = JSON.stringify(headings);
      if (headings && text != map) event.sections = ticks = headings, map = text, BAR && draw?.();
      peak = 0; afresh();
      sent = 1; best = M.max(best, g.contentOffset.y);
      let body = JSON.stringify(event);
      safe(() => navigator.sendBeacon(url, body))()
        || fetch(url, { method: 'POST', body, keepalive: 1, mode: 'no-cors' }).catch(() => {});
    };
    let stop = () => timer = clearTimeout(timer);
    let tick = safe(() => { stop(); measure(); (!sent || peak.contentOffset.y > best) && send() });
    let start = (id, delay) => {
      stop(); account(); afresh();
      article = id; sent = hidden = best = peak = map = 0; BAR && (ticks = []);
      if (delay >= 0) timer = setTimeout(tick, delay);
      BAR && draw && soon();
    };
    // Measured now only if the article is still on the page.
    let end = () => { stop(); sent && send(lastEl == find()) };
    let hide = () => { hidden || (hidden = 1, stop(), send(1)) };
    let restart = () => start(current(), 0);
    let changed = () => { manual || current() == article || (end(), start(current(), 300)) };

    // The seeds' bar: §3's progress with the article as the content, from the geometry the events
    // carry. A heading's tick is at its share of the body: the fill reaches it as the heading
    // passes the line that moves down the viewport as the bar fills.
    if (BAR && data('bar') != null) {
      let bar = E.appendChild(d.createElement('reading-progress'));
      bar.style = `pointer-events:none;position:fixed;inset:${data('bar') == 'bottom' ? 'auto 0 0' : 0};z-index:2147483647;height:${+data('bar-height') || 3}px`;
      bar.role = 'progressbar';
      bar.ariaLabel = 'Reading progress';
      draw = () => {
        let [s, e, y, V] = G, l = e - s - V, x = l > 0 ? M.min(100, M.max(0, 100 * (y - s) / l)) : 0,
          percent = M.round(x) - (x % 2 == .5); // ties to even
        bar.style.background = `linear-gradient(90deg,#0000,#0000${ticks.map(h => `,#0000 ${h = 100 * h.start}%,#0006 0 ${h + .3}%,#0000 0`).join('')}),linear-gradient(90deg,${data('bar-color') || '#06f'} ${x}%,#0000 0)`;
        bar.ariaValueNow = percent, bar.ariaValueText = percent + '%';
      };
    }

    let passive = { capture: 1, passive: 1 };
    for (let t of ['keydown', 'pointerdown', 'pointermove']) on(t, touched, passive);
    on('scroll', () => { touched(); soon() }, passive);
    on('blur', account);
    on('visibilitychange', () => d.hidden ? hide() : hidden = 0);
    on('pagehide', hide);
    on('pageshow', e => e.persisted && restart());
    on('popstate', changed);
    on('prerenderingchange', restart, 1); // dispatched at the document, seen on its way there
    for (let k of ['pushState', 'replaceState']) {
      let f = history[k];
      history[k] = function (...a) { let r = f.apply(this, a); safe(changed)(); return r };
    }
    api.flush = safe(() => send(1));
    api.track = safe(id => { manual = 1; end(); start('' + (id || current()), 0) });

    account();
    start(current());
    // Of loading, interactive and complete, only the last sorts before 'd'.
    d.readyState < 'd' ? tick() : on('load', tick);
  })();
})();
