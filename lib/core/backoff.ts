/** Longest we ever wait before a retry, even when a server's Retry-After asks for more. */
export const MAX_RETRY_DELAY_MS = 60_000;

const DEFAULT_BASE_MS = 500;

/**
 * How long to wait before retry number `attempt` (1 for the first retry): exponential backoff
 * with full jitter, stretched to honour a server's Retry-After but never beyond a minute.
 */
export function retryDelayMs(input: {
  attempt: number;
  retryAfterMs?: number | null;
  baseMs?: number;
  capMs?: number;
  random?: () => number;
}): number {
  const { attempt, retryAfterMs, baseMs = DEFAULT_BASE_MS, capMs = MAX_RETRY_DELAY_MS, random = Math.random } = input;
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new RangeError(`attempt must be an integer of at least 1; got ${attempt}`);
  }
  // Full jitter (a random point in [0, ceiling)) spreads clients that failed together, so they do
  // not retry in lockstep against a provider that is already rate limiting them.
  const ceiling = Math.min(capMs, baseMs * 2 ** (attempt - 1));
  const jittered = random() * ceiling;
  const honoursRetryAfter = typeof retryAfterMs === "number" && retryAfterMs >= 0;
  if (!honoursRetryAfter) return jittered;
  return Math.min(MAX_RETRY_DELAY_MS, Math.max(retryAfterMs, jittered));
}

// RFC 9110 §10.2.3: delay-seconds, or an HTTP-date in one of its three accepted forms.
const IMF_FIXDATE = /^[A-Za-z]{3}, (\d{2}) ([A-Za-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const RFC850_DATE = /^[A-Za-z]+, (\d{2})-([A-Za-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const ASCTIME_DATE = /^[A-Za-z]{3} ([A-Za-z]{3}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
// Some servers send fractional or negative seconds although the RFC allows neither; both are
// read rather than dropped, and a negative wait becomes "now".
const DELAY_SECONDS = /^-?\d+(?:\.\d+)?$/;

/**
 * Milliseconds to wait according to a Retry-After header (seconds or an HTTP date, measured from
 * `now`); 0 for a time already passed, null when the header is absent or unreadable.
 */
export function parseRetryAfter(header: string | null | undefined, now: Date): number | null {
  if (header === null || header === undefined) return null;
  const value = header.trim();
  if (DELAY_SECONDS.test(value)) return Math.max(0, Math.round(Number(value) * 1000));
  const date = parseHttpDate(value, now);
  if (date === null) return null;
  return Math.max(0, date - now.getTime());
}

// Date.parse is not used: V8 accepts almost any text containing a number ("soon 5") as a date.
function parseHttpDate(value: string, now: Date): number | null {
  let match = IMF_FIXDATE.exec(value);
  if (match) return utc(match[3], match[2], match[1], match[4], match[5], match[6]);
  match = RFC850_DATE.exec(value);
  if (match) {
    // RFC 9110: a two-digit year that would be more than 50 years ahead is in the past century.
    let year = 2000 + Number(match[3]);
    if (year > now.getUTCFullYear() + 50) year -= 100;
    return utc(String(year), match[2], match[1], match[4], match[5], match[6]);
  }
  match = ASCTIME_DATE.exec(value);
  if (match) return utc(match[6], match[1], match[2].trim(), match[3], match[4], match[5]);
  return null;
}

function utc(year: string, monthName: string, day: string, hours: string, minutes: string, seconds: string): number | null {
  const month = MONTHS.indexOf(monthName.toLowerCase());
  if (month === -1 || Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 60) return null;
  // Date.UTC rolls impossible dates over (31 Feb becomes 3 Mar); such a header is unreadable.
  if (new Date(Date.UTC(Number(year), month, Number(day))).getUTCDate() !== Number(day)) return null;
  return Date.UTC(Number(year), month, Number(day), Number(hours), Number(minutes), Number(seconds));
}
