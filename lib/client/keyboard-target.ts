/**
 * True when a key pressed on this element is typing (a text field, a select, the editor), so a
 * page-wide single-key shortcut must leave it alone.
 */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest("[contenteditable=true], .cm-editor")) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement)
    return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"].includes(target.type);
  return false;
}
