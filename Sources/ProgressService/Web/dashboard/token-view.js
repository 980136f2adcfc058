// Asking for the API token: the service runs with --api-token and answered 401. The token is
// kept for this tab only (sessionStorage) and sent as the bearer token from then on.

import { token } from "./api.js";
import { h } from "./dom.js";

export class TokenView {
  /** `rejected`: whether the 401 answered a request that carried a token (a wrong one). */
  constructor(rejected, onToken) {
    const input = h("input", {
      id: "token", name: "token", type: "password", autocomplete: "current-password", required: true,
      spellcheck: "false", "aria-describedby": "token-help", "aria-invalid": rejected ? "true" : null,
    });
    const message = rejected
      ? h("p", { class: "notice error", role: "alert", id: "token-error" },
        "That token was not accepted: the service answered 401. Check it and try again.")
      : null;
    this.element = h("section", { class: "view token-view", "aria-labelledby": "view-title" },
      h("h1", { id: "view-title", tabindex: -1 }, "API token needed"),
      h("p", {}, "This service runs with an API token: statistics are shown to those who have it."),
      message,
      h("form", {
        class: "token-form",
        onsubmit: (event) => {
          event.preventDefault();
          const value = input.value.trim();
          if (!value) return;
          token.set(value);
          onToken();
        },
      },
      h("label", { for: "token" }, "API token"),
      input,
      h("p", { id: "token-help", class: "help" },
        "The value of --api-token (or READING_PROGRESS_API_TOKEN). It is kept in this tab only, until it closes."),
      h("button", { type: "submit", class: "button" }, "Show the statistics")));
    this.input = input;
    if (rejected) token.clear();
  }

  show() {
    document.title = "API token needed — Reading progress";
    this.input.focus();
  }
}
