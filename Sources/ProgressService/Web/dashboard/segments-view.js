// For whom: the segment pickers that filter the whole article view (a device class, a source or
// both, kept in the URL), and "compare by device / source" — the segments route's answer as
// curves over one another and as a table of their figures.

import { articleSegments } from "./api.js";
import { h, replace } from "./dom.js";
import * as format from "./format.js";
import { errorPanel } from "./notices.js";
import { MOST_CURVES, segmentsChart, swatch } from "./segments-chart.js";
import { DEVICES } from "./state.js";

const COLUMNS = [
  { key: "readers", label: "Readers", value: (g) => g.readers, text: format.count },
  { key: "completionRate", label: "Completion rate", value: (g) => g.completion.rate, text: format.percent },
  { key: "completed", label: "Completed", value: (g) => g.completion.completed, text: format.count },
  { key: "depthMean", label: "Mean depth", value: (g) => g.depth.mean, text: format.percent },
  { key: "depthMedian", label: "Median depth", value: (g) => g.depth.median, text: format.percent },
];

/** The device and source pickers and the compare-by choice; `onChange` gets the state's changes. */
export class SegmentControls {
  constructor(onChange) {
    const select = (id, name, first, change) => {
      const element = h("select", { id, name }, h("option", { value: "" }, first));
      element.addEventListener("change", () => change(element.value || null));
      return element;
    };
    this.device = select("segment-device", "device", "All devices", (device) => onChange({ device }));
    this.device.append(...DEVICES.map((device) => h("option", { value: device }, device)));
    this.source = select("segment-source", "source", "All sources", (source) => onChange({ source }));
    this.by = select("compare-by", "by", "No comparison", (by) => onChange({ by }));
    this.by.append(h("option", { value: "device" }, "Compare by device"), h("option", { value: "source" }, "Compare by source"));
    this.element = h("fieldset", { class: "segment-controls" },
      h("legend", {}, "Readers"),
      h("div", { class: "field" }, h("label", { for: "segment-device" }, "Device"), this.device),
      h("div", { class: "field" }, h("label", { for: "segment-source" }, "Source"), this.source),
      h("div", { class: "field" }, h("label", { for: "compare-by" }, "Compare segments"), this.by,
        h("span", { class: "help" }, `Up to ${MOST_CURVES} curves over one another.`)));
  }

  /** Shows `state`'s choices; `sources` are the names the source picker offers (the state's own
   *  among them, even when no reader in range came from it). */
  show(state, sources) {
    this.device.value = state.device ?? "";
    const names = [...new Set([...(sources ?? []), ...(state.source ? [state.source] : [])])];
    replace(this.source, h("option", { value: "" }, "All sources"), names.map((name) => h("option", { value: name }, name)));
    this.source.value = state.source ?? "";
    this.by.value = state.by ?? "";
  }
}

/** The segments compared (or null) and the sources for the picker (`by=source` without the
 *  filter), for the stats `query`. Both are extras: when one fails it resolves to `{failed}`, so
 *  that the figures still show. */
export function segmentRequests(article, query, state, signal) {
  const extra = (promise) => promise.catch((error) =>
    (error.name === "AbortError" || error.status === 401 ? Promise.reject(error) : { failed: error }));
  return Promise.all([
    state.by ? extra(articleSegments(article, { ...query, by: state.by, limit: MOST_CURVES }, signal)) : null,
    extra(articleSegments(article, { ...query, device: null, source: null, by: "source", limit: 50 }, signal)),
  ]);
}

/** The names a `by=source` answer lists, for the source picker. */
export function sourceNames(split) {
  if (!split?.segments) return [];
  return [...split.segments.map((g) => g.segment), ...(split.other ? [split.other.segment] : [])];
}

/** The segment the view is filtered to, as words: "phone readers from newsletter"; null for all. */
export function segmentWords(state) {
  if (!state.device && !state.source) return null;
  return `${state.device ? `${state.device} ` : ""}readers${state.source ? ` from ${state.source}` : ""}`;
}

/** What a filter leaves out, with a way back to every reader. */
export function filterNote(state, clear) {
  const words = segmentWords(state);
  if (!words) return null;
  return h("p", { class: "notice inline", "data-state": "segment" },
    `Only ${words}. First and last event times and attention are not kept by segment, so they are not shown. `,
    h("button", { type: "button", class: "link-button", onclick: clear }, "Show every reader"));
}

/** The comparison for a segments answer (or `{failed}`), `null` when none is asked for. */
export function segmentsPanel(split, state, retry) {
  if (!state.by) return null;
  const title = h("h2", { id: "segments-title" }, `Compared by ${state.by}`);
  const section = h("section", { class: "segment-compare", "aria-labelledby": "segments-title", "data-by": state.by }, title);
  if (split.failed) return replace(section, title, errorPanel(split.failed, retry));
  const drawn = split.segments.slice(0, MOST_CURVES);
  if (!drawn.length) {
    return replace(section, title, h("p", { class: "notice inline", "data-state": "no-segments" },
      "No readers in this range, so no segment to compare."));
  }
  const describe = (g) => `${format.count(g.readers)} readers, ${format.percent(g.completion.rate)} completed`;
  const rest = [...split.segments.slice(MOST_CURVES), ...(split.other ? [split.other] : [])];
  return replace(section, title, segmentsChart(drawn, describe), segmentTable(drawn, rest),
    rest.length ? h("p", { class: "note" }, "Rows without a line pattern are not drawn: the chart shows the first five.") : null);
}

function segmentTable(drawn, rest) {
  const row = (segment, index) => h("tr", { "data-segment": segment.segment },
    h("th", { scope: "row", class: "segment-name" }, index === null ? null : swatch(index), " ", h("bdi", {}, segment.segment)),
    COLUMNS.map((column) => {
      const value = column.value(segment);
      return h("td", { class: "numeric", "data-column": column.key, "data-value": value }, column.text(value));
    }));
  return h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": "Segments table" },
    h("table", { class: "segment-figures" },
      h("caption", {}, "Each segment's readers and how far they read"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Segment"),
        COLUMNS.map((column) => h("th", { scope: "col", class: "numeric" }, column.label)))),
      h("tbody", {}, drawn.map((segment, index) => row(segment, index)), rest.map((segment) => row(segment, null)))));
}
