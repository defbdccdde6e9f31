"use client";

import { useEffect, useMemo, useRef } from "react";
import CodeMirror, { type BasicSetupOptions } from "@uiw/react-codemirror";
import { yaml } from "@codemirror/lang-yaml";
import { lintGutter, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { EditorView, placeholder } from "@codemirror/view";

/** A problem to mark in the editor at its line (1-based; null marks nothing, the list below still names it). */
export interface EditorProblem {
  line: number | null;
  message: string;
  severity: "error" | "warning";
}

const editorTheme = EditorView.theme({
  "&": { fontSize: "13px", backgroundColor: "#ffffff" },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": { fontFamily: "var(--font-mono)", lineHeight: "1.6", minHeight: "320px", maxHeight: "560px" },
  ".cm-content": { padding: "10px 0" },
  ".cm-gutters": { backgroundColor: "#faf8ff", borderRight: "1px solid #dedbee", color: "#6b7280" },
  ".cm-activeLine": { backgroundColor: "rgba(222, 219, 238, 0.28)" },
  ".cm-activeLineGutter": { backgroundColor: "#f1effb", color: "#3f3f46" },
  ".cm-placeholder": { color: "#6b7280" },
  ".cm-cursor": { borderLeftColor: "#4f4bc4" },
});

// A constant: @uiw/react-codemirror reconfigures the editor whenever this object changes identity.
const basicSetup: BasicSetupOptions = {
  lineNumbers: true,
  foldGutter: true,
  autocompletion: false,
  highlightActiveLine: true,
  highlightActiveLineGutter: true,
  highlightSelectionMatches: false,
};

/**
 * The eval config's editor: YAML highlighting (@codemirror/lang-yaml), and each problem the page
 * found marked at its line (an underline and a gutter mark whose tooltip is the message). Tab
 * leaves the editor, so a keyboard user is never trapped in it.
 */
export function ConfigEditor({
  value,
  onChange,
  problems,
  label,
  describedBy,
  placeholderText = "Paste an eval config (YAML or JSON): model, prompts, test_cases, metrics.",
  plainText = false,
}: {
  value: string;
  onChange(value: string): void;
  problems: EditorProblem[];
  label: string;
  describedBy?: string;
  /** What the empty editor says. */
  placeholderText?: string;
  /** Plain text instead of YAML highlighting (a prompt list, a CSV). */
  plainText?: boolean;
}) {
  const viewRef = useRef<EditorView | null>(null);
  const extensions = useMemo(
    () => [
      ...(plainText ? [] : [yaml()]),
      lintGutter(),
      editorTheme,
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ "aria-label": label, ...(describedBy ? { "aria-describedby": describedBy } : {}) }),
      placeholder(placeholderText),
    ],
    [label, describedBy, placeholderText, plainText],
  );

  useEffect(() => {
    const view = viewRef.current;
    if (!view) return;
    view.dispatch(setDiagnostics(view.state, toDiagnostics(view, problems)));
  }, [problems, value]);

  return (
    <div className="overflow-hidden rounded-lg border border-zinc-300 bg-white focus-within:border-accent-strong focus-within:ring-2 focus-within:ring-accent-line">
      <CodeMirror
        value={value}
        onChange={onChange}
        extensions={extensions}
        basicSetup={basicSetup}
        indentWithTab={false}
        onCreateEditor={(view) => {
          viewRef.current = view;
          view.dispatch(setDiagnostics(view.state, toDiagnostics(view, problems)));
        }}
      />
    </div>
  );
}

function toDiagnostics(view: EditorView, problems: EditorProblem[]): Diagnostic[] {
  const { doc } = view.state;
  return problems
    .filter((problem) => problem.line !== null && problem.line >= 1 && problem.line <= doc.lines)
    .map((problem) => {
      const line = doc.line(problem.line!);
      return { from: line.from, to: Math.max(line.from, line.to), severity: problem.severity, message: problem.message };
    });
}
