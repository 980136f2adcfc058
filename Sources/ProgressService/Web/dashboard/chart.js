// The drop-off curve: the API's `reach` (101 shares, reach[k] = share of counted readers whose
// depth is at least k%) drawn as an SVG area, with the quartiles and the completion threshold
// marked and, when asked, the previous period's curve dashed beside it. Pointer and keyboard
// both move a readout along the curve: "N% of readers reached X%".

import { attentionStrip, headingMarks } from "./chart-parts.js";
import { h, s, replace } from "./dom.js";
import { percent, wholePercent } from "./format.js";

const MARGIN = { top: 48, right: 18, bottom: 46, left: 58 };
/** About the width of one character of the chart's 12px labels. */
const LETTER = 6.6;
/** The attention strip under the plot: its gap above and its height. */
const STRIP = { gap: 6, height: 12 };

export class ReachChart {
  constructor() {
    this.focus = null;
    this.canvas = h("div", { class: "chart-canvas" });
    this.readout = h("p", { class: "readout", id: "chart-readout", "aria-live": "polite" });
    this.legend = h("ul", { class: "legend", "aria-label": "Legend" });
    this.element = h("figure", { class: "chart" },
      h("figcaption", { class: "visually-hidden" },
        "The share of readers who reached each depth of the article. The table beside lists every point."),
      this.canvas, this.readout, this.legend);
    // Drawn at the canvas's own width, so that text stays readable from phone to desktop.
    this.resize = new ResizeObserver(() => {
      if (this.data && this.canvas.clientWidth !== this.drawnWidth) this.render();
    });
    this.resize.observe(this.canvas);
  }

  /**
   * `data`: `{reach, previous, quartiles: {p25, median, p75}, threshold, labels: {current, previous},
   * sections, attention}`; `previous` is another 101 shares or null, `sections` the headings to
   * draw (`[{title, start}]`, or null: none), `attention` the twenty bands' seconds or null.
   */
  draw(data) {
    this.data = data;
    this.render();
  }

  render() {
    const { reach, previous, quartiles, threshold, sections, attention } = this.data;
    const width = Math.max(280, Math.round(this.canvas.clientWidth || 640));
    const height = width < 520 ? 250 : 330;
    this.drawnWidth = this.canvas.clientWidth;
    const plotWidth = width - MARGIN.left - MARGIN.right;
    const strip = attention ? STRIP.gap + STRIP.height : 0;
    const plotHeight = height - MARGIN.top - MARGIN.bottom - strip;
    const plotBottom = MARGIN.top + plotHeight;
    const x = (k) => MARGIN.left + (k / 100) * plotWidth;
    const y = (share) => MARGIN.top + (1 - share) * plotHeight;
    this.geometry = { width, x, y, plotWidth };

    const grid = s("g", { class: "grid", "aria-hidden": "true" });
    for (const share of [0, 0.25, 0.5, 0.75, 1]) {
      const tick = { x: MARGIN.left - 8, y: y(share), "dominant-baseline": "middle", "text-anchor": "end" };
      grid.append(
        s("line", { x1: MARGIN.left, x2: width - MARGIN.right, y1: y(share), y2: y(share) }),
        s("text", { class: "tick y-tick", ...tick }, wholePercent(share)));
    }
    const step = width < 520 ? 20 : 10;
    for (let k = 0; k <= 100; k += step) {
      grid.append(
        s("line", { class: "x-grid", x1: x(k), x2: x(k), y1: MARGIN.top, y2: MARGIN.top + plotHeight }),
        s("text", { x: x(k), y: plotBottom + strip + 16, class: "tick x-tick", "text-anchor": "middle" },
          wholePercent(k / 100)));
    }
    const middle = MARGIN.top + plotHeight / 2;
    const axes = s("g", { class: "axis-titles", "aria-hidden": "true" },
      s("text", { x: 14, y: middle, transform: `rotate(-90 14 ${middle})`, "text-anchor": "middle" }, "% of readers"),
      s("text", { x: MARGIN.left + plotWidth / 2, y: height - 6, "text-anchor": "middle" }, "depth"));

    const at = (share, k) => `${x(k).toFixed(2)},${y(share).toFixed(2)}`;
    const points = reach.map(at);
    const baseline = y(0).toFixed(2);
    const area = s("path", {
      class: "reach-area",
      d: `M${x(0).toFixed(2)},${baseline}L${points.join("L")}L${x(100).toFixed(2)},${baseline}Z`,
    });
    const line = s("polyline", { class: "reach-line", points: points.join(" ") });
    // One circle a point, carrying its figures, so that the chart is its own data.
    const dots = s("g", { class: "points" }, reach.map((share, k) => s("circle", {
      class: "point", cx: x(k).toFixed(2), cy: y(share).toFixed(2), r: 1.75, "data-depth": k, "data-reach": share,
    })));
    const previousLine = previous
      ? s("polyline", { class: "reach-previous", points: previous.map(at).join(" ") })
      : null;

    this.cursor = s("g", { class: "cursor", display: "none", "aria-hidden": "true" },
      s("line", { class: "cursor-line", y1: MARGIN.top, y2: MARGIN.top + plotHeight }),
      s("circle", { class: "cursor-dot", r: 4.5 }),
      s("circle", { class: "cursor-dot previous-dot", r: 3.5, display: previous ? "inline" : "none" }),
      s("rect", { class: "tip-box", rx: 4, height: previous ? 38 : 22, y: MARGIN.top + 4 }),
      s("text", { class: "tip", y: MARGIN.top + 19 }),
      s("text", { class: "tip tip-previous", y: MARGIN.top + 35 }));

    const svg = s("svg", {
      class: "reach-chart", viewBox: `0 0 ${width} ${height}`, width, height, tabindex: 0, role: "img",
      "aria-label": "Reach curve: share of readers who reached each depth. Arrow keys move along it.",
      "aria-describedby": "chart-readout",
    },
    grid, axes, area, previousLine, line, dots,
    sections?.length ? headingMarks(sections, x, MARGIN.top, plotBottom) : null,
    this.markers(quartiles, threshold, x, plotHeight),
    attention ? attentionStrip(attention, x, plotBottom + STRIP.gap, STRIP.height) : null,
    this.cursor,
    // The whole plot takes the pointer, so that the readout follows it anywhere along the curve.
    s("rect", { class: "hit", x: MARGIN.left, y: MARGIN.top, width: plotWidth, height: plotHeight }));
    svg.addEventListener("pointermove", (event) => this.point(this.depthAt(event, svg)));
    svg.addEventListener("pointerdown", (event) => this.point(this.depthAt(event, svg)));
    svg.addEventListener("pointerleave", () => { if (document.activeElement !== svg) this.point(null); });
    svg.addEventListener("focus", () => this.point(this.focus ?? this.median()));
    svg.addEventListener("blur", () => this.point(null));
    svg.addEventListener("keydown", (event) => this.key(event));
    // Drawn anew (new data, a new width) under a keyboard user's focus: it stays on the chart.
    const hadFocus = this.svg !== undefined && document.activeElement === this.svg;
    this.svg = svg;
    replace(this.canvas, svg);
    if (hadFocus) svg.focus({ preventScroll: true });
    this.renderLegend();
    if (this.focus !== null) this.point(this.focus);
    else this.showSummary();
  }

  /** The quartile and threshold lines, their labels in up to three rows above the plot so
   *  that close quartiles do not overlap. */
  markers(quartiles, threshold, x, plotHeight) {
    const group = s("g", { class: "markers" });
    const marks = [
      { key: "p25", depth: quartiles.p25, label: "p25" },
      { key: "median", depth: quartiles.median, label: "median" },
      { key: "p75", depth: quartiles.p75, label: "p75" },
    ];
    let previousEnd = -Infinity;
    let row = 0;
    for (const mark of marks) {
      const at = x(mark.depth * 100);
      row = at + 3 < previousEnd + 6 ? Math.min(2, row + 1) : 0;
      previousEnd = at + 3 + mark.label.length * LETTER;
      const labelY = MARGIN.top - 34 + row * 12;
      group.append(s("g", { class: "marker quartile", "data-marker": mark.key, "data-depth": mark.depth },
        s("line", { x1: at, x2: at, y1: labelY + 3, y2: MARGIN.top + plotHeight }),
        s("text", { x: at + 3, y: labelY }, mark.label)));
    }
    const at = x(threshold * 100);
    const label = `threshold ${wholePercent(threshold)}`;
    const fitsLeft = at - 4 - label.length * LETTER >= MARGIN.left;
    const placed = { x: fitsLeft ? at - 4 : at + 4, "text-anchor": fitsLeft ? "end" : "start" };
    group.append(s("g", { class: "marker threshold", "data-marker": "threshold", "data-depth": threshold },
      s("line", { x1: at, x2: at, y1: MARGIN.top, y2: MARGIN.top + plotHeight }),
      s("text", { y: MARGIN.top + plotHeight - 8, ...placed }, label)));
    return group;
  }

  renderLegend() {
    const { labels, previous, sections, attention } = this.data;
    const entry = (kind, text) => h("li", { class: `legend-${kind}` },
      h("span", { class: "swatch", "aria-hidden": "true" }), text);
    replace(this.legend,
      entry("current", labels.current),
      previous ? entry("previous", labels.previous) : null,
      entry("quartile", "p25, median, p75 of readers' depth"),
      entry("threshold", "completion threshold"),
      sections?.length ? entry("heading", "section headings, where each starts") : null,
      attention ? entry("attention", "attention: the darker a band, the more seconds per reader it had in view") : null);
  }

  depthAt(event, svg) {
    const box = svg.getBoundingClientRect();
    const { width, plotWidth } = this.geometry;
    const at = ((event.clientX - box.left) * width) / box.width;
    return Math.min(100, Math.max(0, Math.round(((at - MARGIN.left) / plotWidth) * 100)));
  }

  median() {
    return Math.round(this.data.quartiles.median * 100);
  }

  key(event) {
    const moves = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10 };
    let depth = this.focus ?? this.median();
    if (event.key in moves) depth += moves[event.key];
    else if (event.key === "Home") depth = 0;
    else if (event.key === "End") depth = 100;
    else return;
    event.preventDefault();
    this.point(Math.min(100, Math.max(0, depth)));
  }

  /** Moves the readout to depth `k` (0…100), or hides it for `null`. */
  point(k) {
    this.focus = k;
    if (k === null) {
      this.cursor.setAttribute("display", "none");
      this.showSummary();
      return;
    }
    const { reach, previous } = this.data;
    const { x, y, width } = this.geometry;
    const [line, dot, previousDot, box, tip, tipPrevious] = this.cursor.children;
    const at = x(k);
    line.setAttribute("x1", at);
    line.setAttribute("x2", at);
    dot.setAttribute("cx", at);
    dot.setAttribute("cy", y(reach[k]));
    if (previous) {
      previousDot.setAttribute("cx", at);
      previousDot.setAttribute("cy", y(previous[k]));
    }
    const text = sentence(reach[k], k);
    tip.textContent = text;
    tipPrevious.textContent = previous ? `previous period: ${percent(previous[k])}` : "";
    this.cursor.setAttribute("display", "inline");
    const textWidth = Math.max(tip.getComputedTextLength(), previous ? tipPrevious.getComputedTextLength() : 0);
    const left = at + 10 + textWidth + 12 > width ? at - textWidth - 18 : at + 10;
    for (const label of [tip, tipPrevious]) label.setAttribute("x", left + 6);
    box.setAttribute("x", left);
    box.setAttribute("width", textWidth + 12);
    this.readout.textContent = previous ? `${text}; previous period: ${percent(previous[k])}.` : `${text}.`;
    this.readout.dataset.depth = k;
  }

  showSummary() {
    delete this.readout.dataset.depth;
    this.readout.textContent = "Point at (or touch) the curve, or focus it and use the arrow keys, to read it.";
  }
}

/** "73.5% of readers reached 40%". */
export function sentence(share, k) {
  return `${percent(share)} of readers reached ${k}%`;
}
