import { foldService } from "@codemirror/language";
import type { Text } from "@codemirror/state";
import { indentFoldRange, type LineSource } from "./indent-fold";

function linesOf(doc: Text): LineSource {
  return { length: doc.lines, at: (index) => (index >= 0 && index < doc.lines ? doc.line(index + 1).text : undefined) };
}

/** Folds the lines indented deeper than the line above them (prompts have no syntax tree to fold by). */
export const indentFolding = foldService.of((state, lineStart) => {
  const line = state.doc.lineAt(lineStart);
  const range = indentFoldRange(linesOf(state.doc), line.number - 1, state.tabSize);
  if (!range) return null;
  return { from: line.to, to: state.doc.line(range.toLine + 1).to };
});
