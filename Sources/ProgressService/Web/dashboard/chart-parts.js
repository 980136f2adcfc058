// What the drop-off curve carries about the article's body: the section headings, a line at
// each section's start (drawn only with seen depth, the coordinate the starts are in), and the
// attention of the twenty bands as a heat strip along the depth axis. Titles come from anyone
// who can post an event: they go in as text nodes only.

import { s } from "./dom.js";
import { duration, wholePercent } from "./format.js";

/** Titles longer than this are cut on the chart; the full title is its tooltip and in the table. */
const LABEL_LETTERS = 28;
/** Labels closer than this (px) to the one before are left out; the line stays. */
const LABEL_GAP = 14;

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** A title cut to `letters` characters as a reader counts them (whole graphemes, so that an
 *  emoji or an accented letter is never split). */
export function shortTitle(title, letters = LABEL_LETTERS) {
  const chars = Array.from(graphemes.segment(title), (part) => part.segment);
  return chars.length <= letters ? title : `${chars.slice(0, letters - 1).join("")}…`;
}

/** A line and a label, written upwards along it, at each section's start. */
export function headingMarks(sections, x, top, bottom) {
  const group = s("g", { class: "headings" });
  let lastLabel = -Infinity;
  sections.forEach((section, index) => {
    const at = x(section.start * 100);
    const labelled = at - lastLabel >= LABEL_GAP;
    if (labelled) lastLabel = at;
    const labelX = at + 11;
    const labelY = bottom - 6;
    group.append(s("g", {
      class: "heading", "data-section": index, "data-start": section.start, "data-x": at.toFixed(2),
    },
    s("title", {}, `${section.title} (starts at ${wholePercent(section.start)})`),
    s("line", { x1: at, x2: at, y1: top, y2: bottom }),
    labelled
      ? s("text", { x: labelX, y: labelY, transform: `rotate(-90 ${labelX} ${labelY})` }, shortTitle(section.title))
      : null));
  });
  return group;
}

/** The twenty bands as cells from depth i/20 to (i+1)/20, darker for more seconds per reader. */
export function attentionStrip(attention, x, y, height) {
  const most = Math.max(...attention);
  const group = s("g", { class: "attention-strip" });
  attention.forEach((seconds, band) => {
    const from = x(band * 5);
    group.append(s("rect", {
      class: "band", x: from.toFixed(2), y, width: (x(band * 5 + 5) - from).toFixed(2), height,
      // A presentation attribute, not a style: the page's policy allows it.
      "fill-opacity": most > 0 ? (0.08 + 0.92 * (seconds / most)).toFixed(3) : 0,
      "data-band": band, "data-seconds": seconds,
    }, s("title", {}, bandText(seconds, band))));
  });
  group.append(s("rect", {
    class: "strip-edge", x: x(0), y, width: (x(100) - x(0)).toFixed(2), height,
  }));
  return group;
}

/** "40–45% of the body: 12.3 s per reader". */
export function bandText(seconds, band) {
  const range = `${band * 5}–${band * 5 + 5}%`;
  return `${range} of the body: ${seconds === null ? "—" : duration(seconds)} per reader`;
}
