// CSV downloads. Article ids come from anyone who can post an event, and a spreadsheet runs a
// cell that begins with = + - @ (or a tab or carriage return, which some strip first) as a
// formula: such cells are prefixed with an apostrophe, which makes them text.

const FORMULA_START = /^[=+\-@\t\r]/;

/** `text` made safe to open in a spreadsheet. */
export function neutralise(text) {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One CSV field (RFC 4180): numbers as they are, text neutralised and quoted when needed. */
export function field(value) {
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  const text = neutralise(value === null || value === undefined ? "" : String(value));
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows (arrays of values) as a CSV document, with a byte-order mark so spreadsheets read UTF-8. */
export function csvText(rows) {
  return `\uFEFF${rows.map((row) => row.map(field).join(",")).join("\r\n")}\r\n`;
}

/** Offers `rows` as a download named `name`. */
export function download(name, rows) {
  const blob = new Blob([csvText(rows)], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it has started; a minute is ample.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A file name part from any text: letters, digits, dashes and underscores only. */
export function fileNamePart(text) {
  const safe = text.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "");
  return (safe || "article").slice(0, 60);
}
