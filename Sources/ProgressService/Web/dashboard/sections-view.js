// Where in the article: the stats answer's `sections` as a table (reached, stopped within,
// seconds per reader who reached it, words per minute, and a mark on a section read too fast to
// have been read), its `attention` band by band, and both as a CSV. Whatever the metric: both
// are about what came into view.

import { bandText } from "./chart-parts.js";
import { download, fileNamePart } from "./csv.js";
import { h } from "./dom.js";
import * as format from "./format.js";

/** Faster than this many words a minute, a section was skimmed, not read. */
export const SKIMMED_WPM = 450;
const SKIMMED_HELP =
  `Skimmed: read faster than ${SKIMMED_WPM} words a minute. Adults read prose silently at about 240.`;

const COLUMNS = [
  { key: "start", label: "Starts at", text: format.percent },
  { key: "reached", label: "Reached", text: format.percent },
  { key: "stoppedWithin", label: "Stopped within", text: format.percent },
  { key: "seconds", label: "Seconds per reader who reached it", text: format.duration },
  { key: "words", label: "Words", text: format.count },
  { key: "wordsPerMinute", label: "Words a minute", text: format.count },
];

/** A section read faster than the threshold. */
export function skimmed(section) {
  return section.wordsPerMinute !== null && section.wordsPerMinute > SKIMMED_WPM;
}

/** The section of the article view about its sections and attention, for one stats answer. */
export function sectionsPanel(stats) {
  const { sections, attention } = stats;
  const csvButton = sections.length
    ? h("button", { type: "button", class: "button secondary", onclick: () => downloadSections(stats) },
      "Download the sections as CSV")
    : null;
  return h("section", { class: "sections", "aria-labelledby": "sections-title" },
    h("div", { class: "section-head" }, h("h2", { id: "sections-title" }, "Where in the article"), csvButton),
    sections.length
      ? [sectionTable(sections), h("p", { class: "note", id: "skimmed-help" }, SKIMMED_HELP)]
      : h("p", { class: "notice inline", "data-state": "no-sections" },
        "No sections reported: no event for this article has carried its headings. ",
        "The web tracker sends the article's h2 and h3 headings; see the API's sections field."),
    attention ? attentionTable(attention) : null);
}

function sectionTable(sections) {
  const cell = (section, column) => {
    const value = section[column.key];
    return h("td", { class: "numeric", "data-column": column.key, "data-value": value ?? "" },
      value === null ? "—" : column.text(value));
  };
  return h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": "Sections table" },
    h("table", { class: "section-figures" },
      h("caption", {}, "Each section of the article’s latest map of headings, by where readers stopped"),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, "Section"),
        COLUMNS.map((column) => h("th", { scope: "col", class: "numeric" }, column.label)))),
      h("tbody", {}, sections.map((section, index) => h("tr", { "data-section": index },
        h("th", { scope: "row", class: "section-title" },
          h("bdi", {}, section.title),
          skimmed(section)
            ? [" ", h("span", { class: "skimmed", title: SKIMMED_HELP, "aria-describedby": "skimmed-help" }, "skimmed")]
            : null),
        COLUMNS.map((column) => cell(section, column)))))));
}

/** The strip's figures as text: what each band had in view, per reader. */
function attentionTable(attention) {
  return h("details", { class: "attention-details" },
    h("summary", {}, "Attention along the body, band by band"),
    h("p", { class: "note" },
      "Seconds per reader during which a band of the body was on screen while the reader was engaged; ",
      "several bands are on screen at once, so they add up to more than the engaged time."),
    h("table", { class: "attention-figures" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, "Band of the body"), h("th", { scope: "col", class: "numeric" }, "Per reader"))),
      h("tbody", {}, attention.map((seconds, band) => h("tr", { "data-band": band, title: bandText(seconds, band) },
        h("th", { scope: "row" }, `${band * 5}–${band * 5 + 5}%`),
        h("td", { class: "numeric", "data-value": seconds }, format.duration(seconds)))))));
}

function downloadSections(stats) {
  const header = [
    "article", "metric", "from", "to", "section", "title", "start", "end", "words", "reached",
    "stoppedWithin", "secondsPerReader", "wordsPerMinute", "skimmed",
  ];
  const rows = stats.sections.map((section, index) => [
    stats.article, stats.metric, stats.from ?? "", stats.to ?? "", index + 1, section.title, section.start,
    section.end, section.words ?? "", section.reached, section.stoppedWithin, section.seconds ?? "",
    section.wordsPerMinute ?? "", skimmed(section) ? "yes" : "no",
  ]);
  const name = ["sections", fileNamePart(stats.article), stats.from ?? "start", stats.to ?? "today"].join("_");
  download(`${name}.csv`, [header, ...rows]);
}
