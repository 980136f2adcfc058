// How figures read: the browser's locale for numbers, UTC for times (the API's days are UTC
// days, so a range and the times in it are told in the same clock).

const counts = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const percents = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 1 });
const wholePercents = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 0 });
const decimals = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const times = new Intl.DateTimeFormat(undefined, {
  year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
  hourCycle: "h23", timeZone: "UTC",
});
const days = new Intl.DateTimeFormat(undefined, {
  year: "numeric", month: "short", day: "numeric", timeZone: "UTC",
});

export function count(value) {
  return counts.format(value);
}

/** A share of 0…1 as a percentage with at most one decimal: 0.3419 → "34.2%". */
export function percent(share) {
  return percents.format(share);
}

/** A depth of 0…1 as a whole percentage: 0.4 → "40%" (the chart's axis and readout). */
export function wholePercent(share) {
  return wholePercents.format(share);
}

/** Seconds as the two largest units: "1 h 02 min", "4 min 12 s", "9.5 s". */
export function duration(seconds) {
  if (seconds < 60) return `${decimals.format(seconds)} s`;
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = whole % 60;
  if (h > 0) return `${counts.format(h)} h ${String(m).padStart(2, "0")} min`;
  return `${m} min ${String(sec).padStart(2, "0")} s`;
}

/** An RFC 3339 time as "30 Nov 2026, 09:00 UTC"; "—" for none. */
export function time(text) {
  if (!text) return "—";
  return `${times.format(new Date(text))} UTC`;
}

/** A UTC day `YYYY-MM-DD` as "30 Nov 2026". */
export function day(text) {
  return days.format(new Date(`${text}T00:00:00Z`));
}

/** A range of UTC days as words: "1 Nov 2026 – 30 Nov 2026", "since 1 Nov 2026", "all time". */
export function dayRange(range) {
  if (range.from && range.to) {
    return range.from === range.to ? day(range.from) : `${day(range.from)} – ${day(range.to)}`;
  }
  if (range.from) return `since ${day(range.from)}`;
  if (range.to) return `until ${day(range.to)}`;
  return "all time";
}
