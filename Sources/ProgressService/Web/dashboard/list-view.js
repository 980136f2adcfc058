// The list: every article with its readers, events, completion rate, mean depth and last event
// over the range, in the API's sorts, a page at a time (the API's cursor), filtered by the
// start of the article id.

import { ApiError, listAllArticles, listArticles } from "./api.js";
import { RangeControl } from "./controls.js";
import { articleText, h, replace, s } from "./dom.js";
import * as format from "./format.js";
import { download, fileNamePart } from "./csv.js";
import { errorPanel, noArticlesYet } from "./notices.js";
import { PAGE_SIZES, resolveRange, viewHref } from "./state.js";

/** The columns; `sort` names the API's order a column's header sets, highest or first at the top. */
const COLUMNS = [
  { key: "article", label: "Article", sort: "article", order: "ascending" },
  { key: "readers", label: "Readers", sort: "readers", order: "descending", numeric: true },
  { key: "events", label: "Events", numeric: true },
  { key: "completionRate", label: "Completion", sort: "completion", order: "descending", numeric: true },
  { key: "meanDepth", label: "Mean depth", numeric: true },
  { key: "lastEventAt", label: "Last event", sort: "recent", order: "descending" },
];

const ARROWS = { ascending: " ▲", descending: " ▼" };

const SORT_NAMES = {
  readers: "most readers first",
  completion: "highest completion rate first",
  recent: "latest event first",
  article: "by article id",
};

export class ListView {
  constructor(app) {
    this.app = app;
    this.cursors = [];
    this.request = null;
    this.range = new RangeControl((range) => this.change(range), "list");
    this.prefix = h("input", {
      type: "search", id: "prefix", name: "prefix", autocomplete: "off", spellcheck: "false",
      placeholder: "/blog/", maxlength: 256,
    });
    this.prefix.addEventListener("input", () => {
      clearTimeout(this.typing);
      this.typing = setTimeout(() => this.change({ prefix: this.prefix.value }, { replace: true }), 300);
    });
    this.limit = h("select", { id: "limit", name: "limit" },
      PAGE_SIZES.map((size) => h("option", { value: size }, String(size))));
    this.limit.addEventListener("change", () => this.change({ limit: Number(this.limit.value) }));
    // The column headers sort too; where the table is shown as cards (a phone) they are hidden.
    this.sort = h("select", { id: "sort", name: "sort" },
      COLUMNS.filter((column) => column.sort).map((column) =>
        h("option", { value: column.sort }, column.label)));
    this.sort.addEventListener("change", () => this.change({ sort: this.sort.value }));
    this.csvButton = h(
      "button",
      { type: "button", class: "button secondary", onclick: () => this.downloadCSV() },
      "Download CSV",
    );
    this.summary = h("p", { class: "view-summary" });
    this.body = h("div", { class: "view-body", "aria-live": "polite", "aria-busy": "false" });
    this.element = h("section", { class: "view list-view", "aria-labelledby": "view-title" },
      h("div", { class: "view-head" },
        h("h1", { id: "view-title", tabindex: -1 }, "Articles"),
        this.summary),
      h("form", { class: "toolbar", role: "search", onsubmit: (event) => event.preventDefault() },
        this.range.element,
        h("div", { class: "field" }, h("label", { for: "prefix" }, "Article id starts with"), this.prefix),
        h("div", { class: "field sort-field" }, h("label", { for: "sort" }, "Sort"), this.sort),
        h("div", { class: "field" }, h("label", { for: "limit" }, "Rows per page"), this.limit),
        h("div", { class: "field actions" }, this.csvButton)),
      this.body);
  }

  /** Merges `changes` into the state (back to the first page) and shows it. */
  change(changes, options) {
    this.cursors = [];
    this.app.navigate({ ...changes, cursor: null }, options);
  }

  async show(state) {
    this.state = state;
    this.range.show(state);
    if (document.activeElement !== this.prefix) this.prefix.value = state.prefix;
    this.limit.value = String(state.limit);
    this.sort.value = state.sort;
    // Back to a page seen before: the cursor stack follows the browser's history.
    if (!state.cursor) this.cursors = [];
    else if (this.cursors.at(-1) === state.cursor) this.cursors.pop();
    const range = resolveRange(state);
    this.summary.textContent = `${format.dayRange(range)}, ${SORT_NAMES[state.sort]}`;
    document.title = "Articles — Reading progress";

    this.request?.abort();
    const request = new AbortController();
    this.request = request;
    this.body.setAttribute("aria-busy", "true");
    try {
      const query = { sort: state.sort, limit: state.limit, cursor: state.cursor, prefix: state.prefix };
      const page = await listArticles({ ...query, from: range.from, to: range.to }, request.signal);
      this.render(page, state);
    } catch (error) {
      if (error.name === "AbortError") return;
      if (!this.app.handle(error)) replace(this.body, errorPanel(error, () => this.show(this.state)));
    } finally {
      if (this.request === request) this.body.setAttribute("aria-busy", "false");
    }
  }

  render(page, state) {
    const rows = page.articles;
    if (rows.length === 0 && !state.cursor) {
      if (!state.prefix) {
        replace(this.body, noArticlesYet());
      } else {
        replace(this.body, h("section", { class: "notice empty" },
          h("h2", {}, "No article matches"),
          h("p", {}, "No article id starts with “", articleText(state.prefix), "”."),
          h(
            "button",
            { type: "button", class: "button", onclick: () => this.change({ prefix: "" }) },
            "Show every article",
          ),
        ));
      }
      this.csvButton.disabled = true;
      return;
    }
    this.csvButton.disabled = false;
    replace(this.body,
      h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": "Articles table" },
        this.table(rows, state)),
      state.cursor || page.next ? this.pager(page, state) : null);
  }

  table(rows, state) {
    const range = resolveRange(state);
    // Explicit roles keep the table a table for screen readers where CSS shows it as cards.
    const head = h("tr", { role: "row" }, COLUMNS.map((column) => {
      const active = column.sort === state.sort;
      const header = h("th", {
        scope: "col",
        role: "columnheader",
        class: column.numeric ? "numeric" : null,
        "aria-sort": active ? column.order : null,
      });
      if (!column.sort) return replace(header, column.label);
      return replace(header, h("button", {
        type: "button", class: "sort", "data-sort": column.sort, "aria-pressed": String(active),
        onclick: () => this.change({ sort: column.sort }),
      }, column.label, h("span", { class: "sort-mark", "aria-hidden": "true" }, active ? ARROWS[column.order] : "")));
    }));
    const body = h("tbody", { role: "rowgroup" }, rows.map((row) => {
      const link = viewHref({ ...this.app.state, article: row.article, metric: "progress", threshold: null,
        minEngagedSeconds: null, compare: false });
      return h("tr", { role: "row", class: row.readers === 0 ? "quiet" : null },
        h("th", { scope: "row", role: "rowheader", class: "article-cell" },
          h("a", { href: link, "data-nav": "" }, articleText(row.article))),
        cell("readers", row.readers, format.count(row.readers)),
        cell("events", row.events, format.count(row.events)),
        cell("completionRate", row.completionRate, bar(row.completionRate), format.percent(row.completionRate)),
        cell("meanDepth", row.meanDepth, bar(row.meanDepth), format.percent(row.meanDepth)),
        cell("lastEventAt", row.lastEventAt ?? "", row.lastEventAt
          ? h("time", { datetime: row.lastEventAt }, format.time(row.lastEventAt))
          : "no event in range"));
    }));
    return h("table", { class: "articles", role: "table" },
      h("caption", { class: "visually-hidden" },
        `Articles, ${SORT_NAMES[state.sort]}, ${format.dayRange(range)}`),
      h("thead", { role: "rowgroup" }, head), body);
  }

  pager(page, state) {
    // A page opened from a link has no pages behind it that this tab has seen.
    const number = !state.cursor ? 1 : this.cursors.length > 0 ? this.cursors.length + 1 : null;
    const previous = h("button", { type: "button", class: "button secondary", disabled: !state.cursor,
      onclick: () => this.app.navigate({ cursor: this.cursors.pop() ?? null }) }, "← Previous");
    const next = h("button", { type: "button", class: "button secondary", disabled: !page.next,
      onclick: () => {
        this.cursors.push(state.cursor);
        this.app.navigate({ cursor: page.next });
      } }, "Next →");
    return h("nav", { class: "pager", "aria-label": "Pages" }, previous,
      h("span", { class: "page-number" }, number ? `Page ${number}` : "A later page"), next);
  }

  async downloadCSV() {
    const state = this.state;
    const range = resolveRange(state);
    this.csvButton.disabled = true;
    try {
      const query = { sort: state.sort, from: range.from, to: range.to, prefix: state.prefix };
      const rows = await listAllArticles(query);
      const prefix = state.prefix ? fileNamePart(state.prefix) : null;
      const name = ["articles", range.from ?? "start", range.to ?? "today", prefix].filter(Boolean).join("_");
      download(`${name}.csv`, [
        ["article", "readers", "events", "completionRate", "meanDepth", "lastEventAt"],
        ...rows.map((row) => [
          row.article, row.readers, row.events, row.completionRate, row.meanDepth, row.lastEventAt ?? "",
        ]),
      ]);
    } catch (error) {
      if (!(error instanceof ApiError) || !this.app.handle(error)) {
        replace(this.body, errorPanel(error, () => this.show(this.state)));
      }
    } finally {
      this.csvButton.disabled = false;
    }
  }
}

/** A figure's cell: its raw value in `data-value`, and the column's name for the card layout. */
function cell(column, value, ...content) {
  const { label, numeric } = COLUMNS.find((c) => c.key === column);
  const props = { role: "cell", class: numeric ? "numeric" : null, "data-column": column, "data-label": label };
  return h("td", { ...props, "data-value": value }, content);
}

/** A small bar for a share of 0…1, beside its figure. */
function bar(share) {
  const width = (Math.min(1, Math.max(0, share)) * 50).toFixed(1);
  return s("svg", { class: "bar", viewBox: "0 0 50 6", width: 50, height: 6, "aria-hidden": "true" },
    s("rect", { class: "bar-track", width: 50, height: 6, rx: 3 }),
    s("rect", { class: "bar-fill", width, height: 6, rx: 3 }));
}
