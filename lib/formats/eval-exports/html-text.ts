// Characters XML 1.0 and HTML forbid in text: controls other than tab, LF and CR, U+FFFE and
// U+FFFF, and surrogates without their pair.
/* eslint-disable no-control-regex -- control characters are what it finds */
const FORBIDDEN_CHARACTERS =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/* eslint-enable no-control-regex */

/**
 * Text as HTML text or attribute value: &, <, >, " and ' as entities, so no output, name or error
 * can open a tag or leave an attribute. Forbidden characters become U+FFFD, which keeps the file
 * well-formed as XML too (the JUnit export shares this).
 */
export function htmlText(text: string): string {
  return text
    .replace(FORBIDDEN_CHARACTERS, "\ufffd")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}
