// Up to five segments' drop-off curves over one another. Each segment has a line pattern and a
// marker shape of its own as well as a colour, so that the legend says which curve is which to
// a reader who cannot tell the colours apart, and on a print in black and white.

import { h, s } from "./dom.js";
import { wholePercent } from "./format.js";

/** Most curves one chart draws. */
export const MOST_CURVES = 5;

/** Per curve, in order: its line pattern (an SVG dash array, "" for solid) and marker shape. */
export const STYLES = [
  { dash: "", marker: "circle", name: "solid line, circles" },
  { dash: "9 5", marker: "square", name: "dashed line, squares" },
  { dash: "2 4", marker: "triangle", name: "dotted line, triangles" },
  { dash: "12 4 3 4", marker: "diamond", name: "dash-dot line, diamonds" },
  { dash: "5 2", marker: "cross", name: "short dashes, crosses" },
];

const WIDTH = 640;
const HEIGHT = 300;
const MARGIN = { top: 16, right: 30, bottom: 44, left: 72 };

/** The path of marker `shape` centred on (x, y). */
function markerPath(shape, x, y) {
  switch (shape) {
    case "square": return `M${x - 3.5},${y - 3.5}h7v7h-7Z`;
    case "triangle": return `M${x},${y - 5}L${x + 5},${y + 4}L${x - 5},${y + 4}Z`;
    case "diamond": return `M${x},${y - 5.5}L${x + 5.5},${y}L${x},${y + 5.5}L${x - 5.5},${y}Z`;
    case "cross": return `M${x - 4},${y - 4}L${x + 4},${y + 4}M${x + 4},${y - 4}L${x - 4},${y + 4}`;
    default: return `M${x - 4},${y}a4,4 0 1,0 8,0a4,4 0 1,0 -8,0`;
  }
}

/** A small drawing of curve `index`'s line and marker, for the legend and the table. */
export function swatch(index) {
  const style = STYLES[index];
  return s("svg", { class: `swatch-line series-${index}`, viewBox: "0 0 36 12", width: 36, height: 12, "aria-hidden": "true" },
    s("line", { x1: 1, x2: 35, y1: 6, y2: 6, "stroke-dasharray": style.dash || null }),
    s("path", { class: `marker-${style.marker}`, d: markerPath(style.marker, 18, 6) }));
}

/** The chart of `segments` (the API's, at most ``MOST_CURVES`` of them) and its legend. */
export function segmentsChart(segments, describe) {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (k) => MARGIN.left + (k / 100) * plotWidth;
  const y = (share) => MARGIN.top + (1 - share) * plotHeight;
  const grid = s("g", { class: "grid", "aria-hidden": "true" });
  for (const share of [0, 0.25, 0.5, 0.75, 1]) {
    grid.append(
      s("line", { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(share), y2: y(share) }),
      s("text", { class: "tick", x: MARGIN.left - 8, y: y(share), "dominant-baseline": "middle", "text-anchor": "end" },
        wholePercent(share)));
  }
  for (let k = 0; k <= 100; k += 20) {
    grid.append(s("text", { class: "tick", x: x(k), y: HEIGHT - MARGIN.bottom + 16, "text-anchor": "middle" },
      wholePercent(k / 100)));
  }
  const curves = segments.slice(0, MOST_CURVES).map((segment, index) => {
    const style = STYLES[index];
    const points = segment.reach.map((share, k) => `${x(k).toFixed(2)},${y(share).toFixed(2)}`);
    // Markers every ten points, shifted per curve so that curves which coincide stay apart.
    const marks = [];
    for (let k = 2 * index; k <= 100; k += 10) {
      marks.push(s("path", { class: `marker-${style.marker}`, d: markerPath(style.marker, x(k), y(segment.reach[k])) }));
    }
    return s("g", {
      class: `segment-curve series-${index}`, "data-segment": segment.segment, "data-dash": style.dash || "solid",
      "data-marker": style.marker, "data-reach": segment.reach.join(","),
    },
    s("title", {}, describe(segment)),
    s("polyline", { class: "segment-line", points: points.join(" "), "stroke-dasharray": style.dash || null }),
    s("g", { class: "segment-markers" }, marks));
  });
  const legend = h("ul", { class: "legend segment-legend", "aria-label": "Which curve is which" },
    segments.slice(0, MOST_CURVES).map((segment, index) => h("li", {
      "data-segment": segment.segment, "data-marker": STYLES[index].marker, "data-dash": STYLES[index].dash || "solid",
    }, swatch(index), h("bdi", {}, segment.segment), `\u00a0(${STYLES[index].name}): ${describe(segment)}`)));
  const middle = MARGIN.top + plotHeight / 2;
  return h("figure", { class: "chart segments-figure" },
    h("figcaption", { class: "visually-hidden" },
      "Each segment's share of readers who reached each depth. The table below lists their figures."),
    s("svg", {
      class: "segments-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img",
      "aria-label": `Reach curves of ${segments.slice(0, MOST_CURVES).map((g) => g.segment).join(", ")}`,
    },
    grid,
    s("g", { class: "axis-titles", "aria-hidden": "true" },
      s("text", { x: 14, y: middle, transform: `rotate(-90 14 ${middle})`, "text-anchor": "middle" }, "% of readers"),
      s("text", { x: MARGIN.left + plotWidth / 2, y: HEIGHT - 6, "text-anchor": "middle" }, "depth")),
    curves),
    legend);
}
