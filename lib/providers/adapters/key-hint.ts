/** Keys shorter than this are not hinted at all: four characters would be most of them. */
const MIN_HINTED_KEY_LENGTH = 12;

/** "the key ending in ...7f3a": enough to tell keys apart, never the key. */
export function describeKey(apiKey: string): string {
  const key = apiKey.trim();
  if (key.length < MIN_HINTED_KEY_LENGTH) return "the key";
  return `the key ending in ...${key.slice(-4)}`;
}

/** The text with every occurrence of the key replaced by its hint. */
export function redactKey(text: string, apiKey: string | null): string {
  const key = apiKey?.trim();
  if (!key) return text;
  const hint = key.length < MIN_HINTED_KEY_LENGTH ? "[key]" : `...${key.slice(-4)}`;
  return text.split(key).join(hint);
}
