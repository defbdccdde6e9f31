import { Decoration, EditorView, MatchDecorator, ViewPlugin } from "@codemirror/view";
import type { DecorationSet, ViewUpdate } from "@codemirror/view";

import { placeholderPattern } from "@/lib/core/template";

const variableMark = Decoration.mark({ class: "cm-template-variable" });

const variableMatcher = new MatchDecorator({ regexp: placeholderPattern(), decoration: () => variableMark });

const variablePlugin = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = variableMatcher.createDeco(view);
    }
    update(update: ViewUpdate) {
      this.decorations = variableMatcher.updateDeco(update, this.decorations);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

const variableTheme = EditorView.baseTheme({
  ".cm-template-variable": {
    color: "#8685ef",
    fontWeight: "600",
    backgroundColor: "rgba(134, 133, 239, 0.1)",
    borderRadius: "3px",
  },
});

/** Colours `{{variables}}` purple in the prompt editor. */
export const variableHighlight = [variablePlugin, variableTheme];
