// What the page says when there is nothing to show or something went wrong: each says what
// happened and what to do next.

import { h } from "./dom.js";

/** No article has had an event yet: how to start, with the tracker's snippet for this service. */
export function noArticlesYet() {
  const tracker = new URL("tracker.js", document.baseURI).href;
  const snippet = `<script defer src="${tracker}" data-article="/blog/how-to-read"></script>`;
  return h("section", { class: "notice empty", "aria-labelledby": "empty-title" },
    h("h2", { id: "empty-title" }, "No articles yet"),
    h("p", {}, "Nothing has been recorded so far. Add the tracker to the pages of your articles, just before ",
      h("code", {}, "</body>"), ", with the article's id in ", h("code", {}, "data-article"),
      " (by default, the page's path):"),
    h("pre", { class: "snippet", tabindex: 0, "aria-label": "Tracker snippet" }, h("code", {}, snippet)),
    h("p", {}, "Apps send the same events to ", h("code", {}, "POST /v1/events"),
      ". Figures appear here as soon as the first reader scrolls. To look around first, start the service with ",
      h("code", {}, "--demo"), " for a sample of a few weeks of readers."));
}

/** An error answer (or none) of the API, as a panel with a retry button. */
export function errorPanel(error, retry) {
  const [title, advice] = explain(error);
  const props = { class: "notice error", role: "alert", "aria-labelledby": "error-title" };
  return h("section", { ...props, "data-status": error.status },
    h("h2", { id: "error-title" }, title),
    h("p", {}, error.message),
    advice ? h("p", {}, advice) : null,
    retry ? h("button", { type: "button", class: "button", onclick: retry }, "Try again") : null);
}

function explain(error) {
  switch (error.status) {
    case 0:
      return ["The service cannot be reached", "Check that it is running, then try again."];
    case 400:
      return [
        "The service refused this view",
        error.field ? `The value of ${error.field} is not one it takes.` : null,
      ];
    case 404:
      return ["Not found", null];
    case 429:
      return ["Too many requests", "The service limits how often one client may ask. Wait a moment."];
    case 503:
      return [
        "The store is unavailable (503)",
        "The service cannot use its store right now (a full disk, an I/O error, or a database that is not " +
          "answering). Nothing is lost that it acknowledged; try again in a moment.",
      ];
    default:
      return [`The service answered ${error.status}`, null];
  }
}

/** The banner shown while `/healthz` says the store does not accept writes. */
export function storeBanner(error) {
  return h("div", { class: "banner-body", "data-status": error.status },
    h("strong", {}, "The store is not accepting new events. "),
    `${error.message}. Events sent meanwhile are refused with 503 and not counted; ` +
      "the figures below are those recorded until then.");
}
