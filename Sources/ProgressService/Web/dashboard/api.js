// The public API of the service, and nothing else: the listing, one article's statistics and
// the health check, on the page's own origin. With `--api-token` the token the editor gives is
// kept in sessionStorage (this tab only, gone when it closes) and sent as the bearer token.

const TOKEN_KEY = "reading-progress.api-token";

/** An answer other than 2xx, or no answer: `status` 0 when the service could not be reached. */
export class ApiError extends Error {
  constructor(status, code, message, { sentToken = false, field = null } = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.sentToken = sentToken;
    this.field = field;
  }
}

export const token = {
  get() {
    try {
      return sessionStorage.getItem(TOKEN_KEY);
    } catch {
      return null;
    }
  },
  set(value) {
    sessionStorage.setItem(TOKEN_KEY, value);
  },
  clear() {
    try {
      sessionStorage.removeItem(TOKEN_KEY);
    } catch {
      // Storage refused: there is nothing kept to clear.
    }
  },
};

async function getJSON(path, query, signal) {
  const url = new URL(path, document.baseURI);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== null && value !== undefined && value !== "") url.searchParams.set(name, String(value));
  }
  const bearer = token.get();
  const headers = { Accept: "application/json" };
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  let response;
  try {
    response = await fetch(url, { headers, signal, cache: "no-store", credentials: "same-origin" });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, "unreachable", "The service did not answer: it may be stopped or restarting.", {
      sentToken: Boolean(bearer),
    });
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON: the status says enough.
  }
  if (!response.ok) {
    const detail = body?.error;
    const code = detail?.code ?? `http_${response.status}`;
    throw new ApiError(response.status, code, detail?.message ?? response.statusText, {
      sentToken: Boolean(bearer),
      field: detail?.field ?? null,
    });
  }
  return body;
}

/** `GET /v1/articles` with `query` (sort, limit, cursor, from, to, prefix). */
export function listArticles(query, signal) {
  return getJSON("v1/articles", query, signal);
}

/** Every row of the listing for `query`, following `next` (for the CSV download). */
export async function listAllArticles(query, signal) {
  const rows = [];
  let cursor = null;
  do {
    const page = await listArticles({ ...query, limit: 1000, cursor }, signal);
    rows.push(...page.articles);
    cursor = page.next;
  } while (cursor);
  return rows;
}

/** `GET /v1/articles/{article}/stats` with `query` (metric, threshold, minEngagedSeconds, from, to,
 *  device, source). */
export function articleStats(article, query, signal) {
  return getJSON(`v1/articles/${encodeURIComponent(article)}/stats`, query, signal);
}

/** `GET /v1/articles/{article}/segments` with `query` (by, limit, and the stats route's). */
export function articleSegments(article, query, signal) {
  return getJSON(`v1/articles/${encodeURIComponent(article)}/segments`, query, signal);
}

/** Whether an id can be asked for in a path at all: URLs resolve `.` and `..` away. */
export function isAddressable(article) {
  return article !== "." && article !== "..";
}

/** `GET /healthz`: resolves when the store accepts writes, rejects with its 503 otherwise. */
export function health(signal) {
  return getJSON("healthz", null, signal);
}
