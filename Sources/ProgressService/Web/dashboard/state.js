// The view lives in the URL's query string, so that a link opens the same view:
//   ?range=30d&sort=completion&prefix=/blog/            the list
//   ?article=/blog/a&range=90d&metric=seenDepth&threshold=0.8&minEngagedSeconds=10&compare=1
//   ?article=/blog/a&device=phone&source=newsletter&by=device   a segment, and segments compared
// Presets are relative to the day the link is opened; custom ranges are `from` and `to`.

export const PRESETS = [
  { key: "7d", days: 7, label: "7 days" },
  { key: "30d", days: 30, label: "30 days" },
  { key: "90d", days: 90, label: "90 days" },
  { key: "all", days: null, label: "All time" },
];
export const SORTS = ["readers", "completion", "recent", "article"];
export const PAGE_SIZES = [25, 50, 100, 200];
export const DEVICES = ["phone", "tablet", "desktop", "other"];
export const SEGMENT_BYS = ["device", "source"];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The view a query string asks for; anything malformed falls back to its default. */
export function parseState(search) {
  const query = new URLSearchParams(search);
  const from = validDay(query.get("from"));
  const to = validDay(query.get("to"));
  const preset = PRESETS.find((p) => p.key === query.get("range"));
  const limit = Number(query.get("limit"));
  return {
    article: query.get("article") || null,
    range: from || to ? "custom" : (preset?.key ?? "all"),
    from,
    to,
    sort: SORTS.includes(query.get("sort")) ? query.get("sort") : "readers",
    prefix: query.get("prefix") ?? "",
    cursor: query.get("cursor") || null,
    limit: PAGE_SIZES.includes(limit) ? limit : 50,
    metric: query.get("metric") === "seenDepth" ? "seenDepth" : "progress",
    threshold: number(query.get("threshold"), 0, 1),
    minEngagedSeconds: number(query.get("minEngagedSeconds"), 0, 1e12),
    compare: query.get("compare") === "1",
    device: DEVICES.includes(query.get("device")) ? query.get("device") : null,
    source: source(query.get("source")),
    by: SEGMENT_BYS.includes(query.get("by")) ? query.get("by") : null,
  };
}

/** The query string of `state`, with only what differs from the defaults, in a fixed order. */
export function stateSearch(state) {
  const query = new URLSearchParams();
  if (state.article) query.set("article", state.article);
  if (state.range === "custom") {
    if (state.from) query.set("from", state.from);
    if (state.to) query.set("to", state.to);
  } else if (state.range !== "all") {
    query.set("range", state.range);
  }
  if (state.article) {
    if (state.metric !== "progress") query.set("metric", state.metric);
    if (state.threshold !== null) query.set("threshold", String(state.threshold));
    if (state.minEngagedSeconds) query.set("minEngagedSeconds", String(state.minEngagedSeconds));
    if (state.compare) query.set("compare", "1");
    if (state.device) query.set("device", state.device);
    if (state.source) query.set("source", state.source);
    if (state.by) query.set("by", state.by);
  } else {
    if (state.sort !== "readers") query.set("sort", state.sort);
    if (state.prefix) query.set("prefix", state.prefix);
    if (state.limit !== 50) query.set("limit", String(state.limit));
    if (state.cursor) query.set("cursor", state.cursor);
  }
  const text = query.toString();
  return text ? `?${text}` : "";
}

/** The link to a view, relative to the page (so the dashboard works under any path prefix). */
export function viewHref(state) {
  return stateSearch(state) || "./";
}

/** The days a state's range covers: `{from, to}`, `null` for an open end. */
export function resolveRange(state, today = todayUTC()) {
  if (state.range === "custom") return { from: state.from, to: state.to };
  const preset = PRESETS.find((p) => p.key === state.range);
  if (!preset?.days) return { from: null, to: null };
  return { from: addDays(today, 1 - preset.days), to: today };
}

/** The period of the same length just before `range`, or `null` when it has no start. */
export function previousRange(range, today = todayUTC()) {
  if (!range.from) return null;
  const to = range.to ?? today;
  const length = daysBetween(range.from, to) + 1;
  return { from: addDays(range.from, -length), to: addDays(range.from, -1) };
}

export function todayUTC() {
  return new Date().toISOString().slice(0, 10);
}

export function addDays(day, count) {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + count);
  return date.toISOString().slice(0, 10);
}

function daysBetween(from, to) {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

function validDay(text) {
  if (!text || !DAY.test(text)) return null;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text) ? text : null;
}

function number(text, min, max) {
  if (text === null || text.trim() === "") return null;
  const value = Number(text);
  return Number.isFinite(value) && value >= min && value <= max ? value : null;
}

/** A source as the API takes it (1–100 bytes, no control characters), else none. */
function source(text) {
  if (!text || new TextEncoder().encode(text).length > 100 || /[\u0000-\u001f\u007f-\u009f]/.test(text)) return null;
  return text;
}
