// The dashboard's entry module: reads the view from the URL, shows it, and keeps the URL, the
// browser's history and the view in step. Every figure comes from the service's public API.

import { ApiError, health, token } from "./api.js";
import { ArticleView } from "./article-view.js";
import { h, replace } from "./dom.js";
import { ListView } from "./list-view.js";
import { storeBanner } from "./notices.js";
import { parseState, stateSearch } from "./state.js";
import { TokenView } from "./token-view.js";

const main = document.getElementById("main");
const banner = document.getElementById("banner");
const session = document.getElementById("session");
const HEALTH_EVERY_MS = 60_000;

const app = {
  state: parseState(location.search),
  view: null,

  /** Merges `changes` into the view's state, records it in the URL and shows it. Typing in a
   *  field replaces the history entry rather than adding one per keystroke. */
  navigate(changes, { replace: replaceEntry = false } = {}) {
    const search = stateSearch({ ...this.state, ...changes });
    if (search !== location.search) {
      history[replaceEntry ? "replaceState" : "pushState"](null, "", search || location.pathname);
    }
    render({ moved: !replaceEntry });
  },

  /** The errors every view answers the same way (401: ask for the token); whether it was one. */
  handle(error) {
    if (!(error instanceof ApiError) || error.status !== 401) return false;
    askForToken(error.sentToken);
    return true;
  },
};

function render({ moved = false } = {}) {
  const state = parseState(location.search);
  app.state = state;
  const kind = state.article === null ? "list" : `article:${state.article}`;
  if (app.view?.kind !== kind) {
    app.view = state.article === null ? new ListView(app) : new ArticleView(app, state.article);
    app.view.kind = kind;
    replace(main, app.view.element);
    if (moved) document.getElementById("view-title")?.focus();
  }
  app.view.show(state);
  showSession();
  checkHealth();
}

function askForToken(rejected) {
  if (app.view?.kind === "token") return;
  const view = new TokenView(rejected, () => {
    app.view = null;
    render({ moved: true });
  });
  view.kind = "token";
  app.view = view;
  replace(main, view.element);
  view.show();
  showSession();
}

function showSession() {
  if (!token.get()) {
    replace(session);
    return;
  }
  replace(session, h("span", {}, "Using an API token"),
    h("button", {
      type: "button", class: "link-button",
      onclick: () => {
        token.clear();
        app.view = null;
        render({ moved: true });
      },
    }, "Forget it"));
}

let lastHealthCheck = 0;

/** Shows a banner while the store refuses writes (`/healthz` 503), whatever the view: looked
 *  at on every view while the banner is up, at most every few seconds otherwise. */
async function checkHealth(force = false) {
  const now = Date.now();
  if (!force && banner.hidden && now - lastHealthCheck < 5_000) return;
  lastHealthCheck = now;
  try {
    await health();
    replace(banner);
    banner.hidden = true;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 503) return;
    replace(banner, storeBanner(error));
    banner.hidden = false;
  }
}

// Links between views stay in the page; a modified click (a new tab) is left to the browser.
document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-nav]");
  if (!link || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  if (link.href !== location.href) history.pushState(null, "", link.href);
  render({ moved: true });
});
window.addEventListener("popstate", () => render({ moved: true }));
setInterval(() => {
  if (document.visibilityState === "visible") checkHealth(true);
}, HEALTH_EVERY_MS);

banner.hidden = true;
render();
