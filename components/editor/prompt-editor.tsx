"use client";

import { useEffect, useMemo, useRef } from "react";
import CodeMirror from "@uiw/react-codemirror";
import { Prec } from "@codemirror/state";
import { EditorView, keymap, placeholder } from "@codemirror/view";
import { variableHighlight } from "./variable-highlight";

const editorTheme = EditorView.theme({
  "&": { height: "100%", fontSize: "13px", backgroundColor: "#ffffff" },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": {
    fontFamily: "var(--font-mono)",
    lineHeight: "1.6",
  },
  ".cm-content": { padding: "12px 0" },
  ".cm-line": { padding: "0 14px 0 10px" },
  ".cm-gutters": {
    backgroundColor: "#faf8ff",
    borderRight: "1px solid #dedbee",
    color: "#6b7280",
  },
  ".cm-lineNumbers .cm-gutterElement": { padding: "0 8px 0 12px", minWidth: "32px" },
  ".cm-activeLine": { backgroundColor: "rgba(222, 219, 238, 0.28)" },
  ".cm-activeLineGutter": { backgroundColor: "#f1effb", color: "#3f3f46" },
  ".cm-placeholder": { color: "#6b7280" },
  ".cm-cursor": { borderLeftColor: "#4f4bc4" },
});

type PromptEditorProps = {
  value: string;
  onChange(value: string): void;
  /** Called on Cmd/Ctrl+Enter. */
  onRun(): void;
};

/** The prompt's CodeMirror editor: line numbers, purple `{{variables}}`, Cmd/Ctrl+Enter to run. */
export function PromptEditor({ value, onChange, onRun }: PromptEditorProps) {
  // The keymap is built once; the ref lets it always call the latest onRun.
  const onRunRef = useRef(onRun);
  useEffect(() => {
    onRunRef.current = onRun;
  });

  const extensions = useMemo(
    () => [
      editorTheme,
      variableHighlight,
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ "aria-label": "Prompt", "aria-keyshortcuts": "Control+Enter Meta+Enter" }),
      placeholder("Write a prompt. Use {{variable}} for a value from each dataset row."),
      Prec.highest(
        keymap.of([
          {
            key: "Mod-Enter",
            run: () => {
              onRunRef.current();
              return true;
            },
          },
        ]),
      ),
    ],
    [],
  );

  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      extensions={extensions}
      height="100%"
      className="h-full"
      theme="light"
      // Tab must move focus out of the editor, or keyboard users are trapped in it.
      indentWithTab={false}
      basicSetup={{
        lineNumbers: true,
        foldGutter: false,
        autocompletion: false,
        // Matching-brace marks on every `}}` read as noise around variables.
        bracketMatching: false,
        highlightActiveLine: true,
        highlightActiveLineGutter: true,
        highlightSelectionMatches: false,
        searchKeymap: true,
      }}
    />
  );
}
