/** A one-line text field's value and where its cursor stands (0 = before the first character). */
export interface TextValue {
  text: string;
  cursor: number;
}

/** Longest value a field takes; a path or a list of caps fits well within it. */
export const MAX_FIELD_CHARS = 500;

export const textValue = (text: string): TextValue => ({ text, cursor: text.length });

export function insertText(value: TextValue, char: string): TextValue {
  if (value.text.length + char.length > MAX_FIELD_CHARS) return value;
  return {
    text: value.text.slice(0, value.cursor) + char + value.text.slice(value.cursor),
    cursor: value.cursor + char.length,
  };
}

export function deleteBefore(value: TextValue): TextValue {
  if (value.cursor === 0) return value;
  return { text: value.text.slice(0, value.cursor - 1) + value.text.slice(value.cursor), cursor: value.cursor - 1 };
}

export function deleteAt(value: TextValue): TextValue {
  return { text: value.text.slice(0, value.cursor) + value.text.slice(value.cursor + 1), cursor: value.cursor };
}

export const moveCursor = (value: TextValue, to: number): TextValue => ({
  text: value.text,
  cursor: Math.max(0, Math.min(value.text.length, to)),
});
