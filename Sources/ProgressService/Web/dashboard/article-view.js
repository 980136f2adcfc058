// One article: its drop-off curve, the quartiles and the completion threshold on it, every
// figure of its statistics, controls for the query (metric, threshold, minimum engaged time,
// range), and the same figures for the period of the same length just before, to compare; all of
// it for one segment of the readers when one is picked, and segments compared curve by curve.

import { ApiError, articleStats, isAddressable } from "./api.js";
import { ReachChart, sentence } from "./chart.js";
import { RangeControl } from "./controls.js";
import { download, fileNamePart } from "./csv.js";
import { articleText, h, replace } from "./dom.js";
import * as format from "./format.js";
import { errorPanel } from "./notices.js";
import { sectionsPanel } from "./sections-view.js";
import { filterNote, SegmentControls, segmentRequests, segmentsPanel, segmentWords, sourceNames } from "./segments-view.js";
import { previousRange, resolveRange, viewHref } from "./state.js";

/** The figures shown, in order: the key tests and CSS know them by, how each is read from the
 *  API's answer and how it reads; headlines come first, as cards. */
const FIGURES = [
  { key: "readers", label: "Readers", value: (st) => st.readers, text: format.count, headline: true },
  {
    key: "completionRate",
    label: "Completion rate",
    value: (st) => st.completion.rate,
    text: format.percent,
    headline: true,
    note: (st) =>
      `${format.count(st.completion.completed)} completed at ≥ ${format.wholePercent(st.completion.threshold)}`,
  },
  { key: "depthMean", label: "Mean depth", value: (st) => st.depth.mean, text: format.percent, headline: true },
  { key: "depthMedian", label: "Median depth", value: (st) => st.depth.median, text: format.percent, headline: true },
  {
    key: "engagedPerReader",
    label: "Engaged time per reader",
    value: (st) => st.engagedSeconds.meanPerReader,
    text: format.duration,
    headline: true,
  },
  {
    key: "unscrollableReaders",
    label: "Unscrollable readers",
    value: (st) => st.unscrollableReaders,
    text: format.count,
  },
  { key: "completed", label: "Completed readers", value: (st) => st.completion.completed, text: format.count },
  { key: "events", label: "Events", value: (st) => st.events, text: format.count },
  { key: "depthP25", label: "Depth p25", value: (st) => st.depth.p25, text: format.percent },
  { key: "depthP75", label: "Depth p75", value: (st) => st.depth.p75, text: format.percent },
  { key: "engagedTotal", label: "Engaged time, total", value: (st) => st.engagedSeconds.total, text: format.duration },
  { key: "firstEventAt", label: "First event", value: (st) => st.firstEventAt, text: format.time },
  { key: "lastEventAt", label: "Last event", value: (st) => st.lastEventAt, text: format.time },
];

/** Figures that are counts, meaningful (as zeros) for a period without readers. */
const COUNTS = new Set(["readers", "unscrollableReaders", "completed", "events", "engagedTotal"]);

const METRIC_HELP =
  "Progress: how far readers scrolled. Seen depth: how much came into view (counts readers who could not scroll).";

export class ArticleView {
  constructor(app, article) {
    this.app = app;
    this.article = article;
    this.request = null;
    this.chart = new ReachChart();
    this.range = new RangeControl((range) => this.app.navigate(range), "article");
    this.segments = new SegmentControls((changes) => this.app.navigate(changes));

    this.metric = h("select", { id: "metric", name: "metric", "aria-describedby": "metric-help" },
      h("option", { value: "progress" }, "progress"),
      h("option", { value: "seenDepth" }, "seen depth"));
    this.metric.addEventListener("change", () => this.app.navigate({ metric: this.metric.value }));
    const number = (id, name, max, help) => h("input", {
      id, name, type: "number", min: 0, max, step: "any", inputmode: "decimal", "aria-describedby": help,
    });
    this.threshold = number("threshold", "threshold", 100, "threshold-help");
    this.minEngaged = number("min-engaged", "minEngagedSeconds", null, "engaged-help");
    for (const input of [this.threshold, this.minEngaged]) {
      // Typing settles for a moment before the view follows; Enter or leaving the field at once.
      input.addEventListener("input", () => {
        clearTimeout(this.typing);
        this.typing = setTimeout(() => this.numbersChanged(), 500);
      });
      input.addEventListener("change", () => this.numbersChanged());
    }
    this.compare = h("input", { id: "compare", name: "compare", type: "checkbox", "aria-describedby": "compare-help" });
    this.compare.addEventListener("change", () => this.app.navigate({ compare: this.compare.checked }));
    this.compareHelp = h("span", { id: "compare-help", class: "help" });
    // Comparing is about the range: its control sits under the range's.
    this.range.element.append(h("div", { class: "field check" },
      this.compare, h("label", { for: "compare" }, "Compare with the period before"), this.compareHelp));

    this.summary = h("p", { class: "view-summary" });
    this.table = h("div", {
      class: "curve-table table-scroll", tabindex: 0, role: "region", "aria-label": "Reach curve table",
    });
    this.csvButton = h("button", { type: "button", class: "button secondary", onclick: () => this.downloadCSV() },
      "Download the curve as CSV");
    this.body = h("div", { class: "view-body", "aria-live": "polite", "aria-busy": "false" });
    this.back = h("a", { class: "back", href: "./", "data-nav": "" }, "← All articles");
    const submit = (event) => {
      event.preventDefault();
      this.numbersChanged();
    };
    this.element = h("section", { class: "view article-view", "aria-labelledby": "view-title" },
      h("nav", { class: "crumbs", "aria-label": "Breadcrumb" }, this.back),
      h("div", { class: "view-head" },
        h("h1", { id: "view-title", tabindex: -1 }, articleText(article)),
        this.summary),
      h("form", { class: "toolbar", onsubmit: submit },
        this.range.element,
        h("div", { class: "field" },
          h("label", { for: "metric" }, "Metric"), this.metric,
          h("span", { id: "metric-help", class: "help" }, METRIC_HELP)),
        h("div", { class: "field narrow" },
          h("label", { for: "threshold" }, "Completion threshold (%)"), this.threshold,
          h("span", { id: "threshold-help", class: "help" }, "Depth that counts as read.")),
        h("div", { class: "field narrow" },
          h("label", { for: "min-engaged" }, "Minimum engaged seconds"), this.minEngaged,
          h("span", { id: "engaged-help", class: "help" }, "Also needed to have completed.")),
        this.segments.element),
      this.body);
  }

  numbersChanged() {
    clearTimeout(this.typing);
    for (const input of [this.threshold, this.minEngaged]) {
      if (!input.checkValidity()) {
        input.setAttribute("aria-invalid", "true");
        return;
      }
      input.removeAttribute("aria-invalid");
    }
    // Percent to a share, without the float noise of a plain division (33 → 0.33).
    const threshold = this.threshold.value === "" ? null : Math.round(Number(this.threshold.value) * 100) / 10_000;
    const seconds = this.minEngaged.value === "" ? null : Number(this.minEngaged.value);
    if (threshold === this.state.threshold && (seconds || null) === (this.state.minEngagedSeconds || null)) return;
    this.app.navigate({ threshold, minEngagedSeconds: seconds }, { replace: true });
  }

  async show(state) {
    this.state = state;
    const range = resolveRange(state);
    const previous = previousRange(range);
    this.range.show(state);
    this.segments.show(state, this.sources);
    this.metric.value = state.metric;
    if (document.activeElement !== this.minEngaged) this.minEngaged.value = state.minEngagedSeconds ?? "";
    this.compare.checked = state.compare && previous !== null;
    this.compare.disabled = previous === null;
    this.compareHelp.textContent = previous
      ? format.dayRange(previous)
      : "Pick a range with a start to compare with the period before.";
    this.back.href = viewHref({ ...state, article: null, cursor: null });
    const metric = state.metric === "progress" ? "progress" : "seen depth";
    this.summary.textContent = [format.dayRange(range), metric, segmentWords(state)].filter(Boolean).join(" · ");
    document.title = `${this.article} — Reading progress`;

    if (!isAddressable(this.article)) {
      const message =
        "An article id of only dots cannot be asked for in a URL: browsers resolve it as part of the path.";
      replace(this.body, errorPanel(new ApiError(400, "unaddressable", message)));
      return;
    }
    this.request?.abort();
    const request = new AbortController();
    this.request = request;
    this.body.setAttribute("aria-busy", "true");
    const query = (days) => ({
      metric: state.metric,
      threshold: state.threshold,
      minEngagedSeconds: state.minEngagedSeconds,
      from: days.from,
      to: days.to,
      device: state.device,
      source: state.source,
    });
    try {
      const [stats, before, [split, sources]] = await Promise.all([
        articleStats(this.article, query(range), request.signal),
        this.compare.checked ? articleStats(this.article, query(previous), request.signal) : null,
        segmentRequests(this.article, query(range), state, request.signal),
      ]);
      this.sources = sourceNames(sources);
      this.segments.show(state, this.sources);
      this.render(stats, before, state, range, previous, split);
    } catch (error) {
      if (error.name === "AbortError" || this.app.handle(error)) return;
      replace(this.body, error.code === "unknown_article"
        ? this.unknown()
        : errorPanel(error, () => this.show(this.state)));
    } finally {
      if (this.request === request) this.body.setAttribute("aria-busy", "false");
    }
  }

  unknown() {
    return h("section", { class: "notice empty", role: "alert" },
      h("h2", {}, "No such article"),
      h("p", {}, "No event was ever received for the article id “", articleText(this.article), "”."),
      h("a", { class: "button", href: "./", "data-nav": "" }, "See every article"));
  }

  render(stats, before, state, range, previous, split) {
    this.stats = stats;
    this.before = before;
    if (document.activeElement !== this.threshold) {
      this.threshold.value = String(Math.round(stats.completion.threshold * 10_000) / 100);
    }
    replace(this.body,
      filterNote(state, () => this.app.navigate({ device: null, source: null })),
      this.notes(stats, state, range),
      this.figureList(stats, before),
      h("section", { class: "curve", "aria-labelledby": "curve-title" },
        h("div", { class: "section-head" }, h("h2", { id: "curve-title" }, "Where readers stop"), this.csvButton),
        h("div", { class: "curve-layout" }, this.chart.element, this.table)),
      segmentsPanel(split, state, () => this.show(this.state)),
      sectionsPanel(stats));
    const readers = (st) => `${format.count(st.readers)} readers`;
    this.chart.draw({
      reach: stats.reach,
      previous: before?.reach ?? null,
      quartiles: stats.depth,
      threshold: stats.completion.threshold,
      // Section starts are shares of the body as seen depth measures it, not of progress.
      sections: stats.metric === "seenDepth" ? stats.sections : null,
      attention: stats.attention,
      labels: {
        current: `${format.dayRange(range)}: ${readers(stats)}`,
        previous: before ? `previous period, ${format.dayRange(previous)}: ${readers(before)}` : "",
      },
    });
    this.renderTable(stats, before);
  }

  /** What the figures alone would not say: no readers in range, or none who could scroll. */
  notes(stats, state, range) {
    if (stats.readers === 0) {
      const allTime = () => this.app.navigate({ range: "all", from: null, to: null });
      return h("section", { class: "notice empty", "data-state": "no-readers" },
        h("h2", {}, "No readers in this range"),
        h("p", {}, segmentWords(state)
          ? `No ${segmentWords(state)} had an event in ${format.dayRange(range)}.`
          : `This article has had readers, but none of them had an event in ${format.dayRange(range)}.`),
        state.range !== "all"
          ? h("button", { type: "button", class: "button", onclick: allTime }, "Show all time")
          : null);
    }
    const counted = stats.metric === "progress" ? stats.readers - stats.unscrollableReaders : stats.readers;
    if (counted > 0) return null;
    return h("p", { class: "notice inline", "data-state": "unscrollable" },
      `None of the ${format.count(stats.readers)} readers could scroll this article (it fit their screens), `,
      "so the progress curve is empty. Seen depth counts them as having seen it all.");
  }

  figureList(stats, before) {
    const item = (figure) => {
      const value = figure.value(stats);
      // A previous period without readers has no depths or times to compare, only its zeros.
      const old = !before ? undefined : before.readers === 0 && !COUNTS.has(figure.key) ? null : figure.value(before);
      const text = (v) => (v === null ? "—" : figure.text(v));
      return h("div", { class: figure.headline ? "figure headline" : "figure", "data-figure": figure.key },
        h("dt", {}, figure.label),
        h("dd", { "data-value": value ?? "" }, text(value)),
        figure.note ? h("dd", { class: "note" }, figure.note(stats)) : null,
        old === undefined
          ? null
          : h("dd", { class: "note previous", "data-previous": old ?? "" }, `previous: ${text(old)}`));
    };
    return h("section", { class: "figures-section", "aria-label": "Figures" },
      h("dl", { class: "headlines" }, FIGURES.filter((f) => f.headline).map(item)),
      h("dl", { class: "details" }, FIGURES.filter((f) => !f.headline).map(item)));
  }

  renderTable(stats, before) {
    const share = (value, title) => h("td", { class: "numeric", "data-value": value, title }, format.percent(value));
    replace(this.table, h("table", { class: "curve-points" },
      h("caption", {}, "Share of readers who reached each depth"),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, "Depth"),
        h("th", { scope: "col", class: "numeric" }, "% of readers"),
        before ? h("th", { scope: "col", class: "numeric" }, "Previous") : null)),
      h("tbody", {}, stats.reach.map((value, k) => h("tr", { "data-depth": k },
        h("th", { scope: "row" }, `${k}%`),
        share(value, sentence(value, k)),
        before ? share(before.reach[k], null) : null)))));
  }

  downloadCSV() {
    const { stats, before } = this;
    const header = ["article", "metric", "from", "to", "depth", "shareOfReaders"];
    if (before) header.push("previousFrom", "previousTo", "previousShareOfReaders");
    const rows = stats.reach.map((share, k) => {
      const row = [stats.article, stats.metric, stats.from ?? "", stats.to ?? "", k / 100, share];
      if (before) row.push(before.from ?? "", before.to ?? "", before.reach[k]);
      return row;
    });
    const name = ["reach", fileNamePart(stats.article), stats.from ?? "start", stats.to ?? "today"].join("_");
    download(`${name}.csv`, [header, ...rows]);
  }
}
