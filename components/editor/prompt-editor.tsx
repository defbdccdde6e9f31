"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import CodeMirror, { type BasicSetupOptions } from "@uiw/react-codemirror";
import { Compartment, Prec } from "@codemirror/state";
import { EditorView, keymap, placeholder } from "@codemirror/view";
import { indentFolding } from "./indent-folding";
import { knownColumnsFacet, templateHighlight, type KnownColumns } from "./template-highlight";

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
  ".cm-lineNumbers .cm-gutterElement": { padding: "0 4px 0 12px", minWidth: "32px" },
  ".cm-foldGutter .cm-gutterElement": { padding: "0 4px", cursor: "pointer", color: "#6b7280" },
  ".cm-foldGutter .cm-gutterElement:hover": { color: "#4f4bc4" },
  ".cm-foldPlaceholder": {
    backgroundColor: "#faf8ff",
    border: "1px solid #dedbee",
    color: "#5f5cd6",
    padding: "0 6px",
    margin: "0 4px",
  },
  ".cm-activeLine": { backgroundColor: "rgba(222, 219, 238, 0.28)" },
  ".cm-activeLineGutter": { backgroundColor: "#f1effb", color: "#3f3f46" },
  ".cm-placeholder": { color: "#6b7280" },
  ".cm-cursor": { borderLeftColor: "#4f4bc4" },
});

// A constant: @uiw/react-codemirror reconfigures the editor whenever this object changes identity.
const basicSetup: BasicSetupOptions = {
  lineNumbers: true,
  foldGutter: true,
  foldKeymap: true,
  autocompletion: false,
  // Matching-brace marks on every `}}` read as noise around variables.
  bracketMatching: false,
  highlightActiveLine: true,
  highlightActiveLineGutter: true,
  highlightSelectionMatches: false,
  searchKeymap: true,
};

type PromptEditorProps = {
  value: string;
  /** Called for the user's edits only; replacing `value` from outside does not call it. */
  onChange(value: string): void;
  /** Called on Cmd/Ctrl+Enter. */
  onRun(): void;
  /** Focus entered the editor (its search panel included). */
  onFocus?(): void;
  /** Focus left the editor for somewhere else on the page. */
  onBlur?(): void;
  /** The active dataset's headers; `{{variables}}` outside them are underlined. Null: no dataset. */
  knownColumns?: string[] | null;
  /** Named in the underline's tooltip: "Not a column of <datasetName>". */
  datasetName?: string;
  readOnly?: boolean;
  ariaLabel?: string;
  /**
   * Which document is shown, e.g. the prompt's id. A new key starts a fresh editor, so undo
   * never brings back the previous prompt's text; a new `value` under the same key keeps the history.
   */
  documentKey?: string;
};

/**
 * The prompt's CodeMirror editor: line numbers, highlighted `{{variables}}`, `<tags>` and "json",
 * indentation folding, Cmd/Ctrl+Enter to run and Ctrl+Shift+Z to toggle line wrapping.
 */
export function PromptEditor({
  value,
  onChange,
  onRun,
  onFocus,
  onBlur,
  knownColumns = null,
  datasetName,
  readOnly = false,
  ariaLabel = "Prompt",
  documentKey,
}: PromptEditorProps) {
  // The extensions are built rarely; the refs let them always call the latest handlers.
  const handlers = useRef({ onChange, onRun });
  useEffect(() => {
    handlers.current = { onChange, onRun };
  });
  const handleChange = useCallback((text: string) => handlers.current.onChange(text), []);

  const [wrap, setWrap] = useState(true);
  const [wrapCompartment] = useState(() => new Compartment());

  const columnsKey = knownColumns ? JSON.stringify(knownColumns) : null;
  const known = useMemo<KnownColumns | null>(
    () =>
      columnsKey === null ? null : { columns: new Set(JSON.parse(columnsKey) as string[]), datasetName: datasetName || "the dataset" },
    [columnsKey, datasetName],
  );

  const extensions = useMemo(
    () => [
      editorTheme,
      templateHighlight,
      indentFolding,
      knownColumnsFacet.of(known),
      wrapCompartment.of(wrap ? EditorView.lineWrapping : []),
      EditorView.contentAttributes.of({
        "aria-label": ariaLabel,
        "aria-keyshortcuts": "Control+Enter Meta+Enter Control+Shift+Z",
        ...(readOnly ? { "aria-readonly": "true" } : {}),
      }),
      placeholder("Write a prompt. Use {{variable}} for a value from each dataset row."),
      // Highest, so Ctrl+Shift+Z toggles wrapping instead of redoing (redo stays on Ctrl+Y).
      Prec.highest(
        keymap.of([
          {
            key: "Mod-Enter",
            run: () => {
              handlers.current.onRun();
              return true;
            },
          },
          {
            key: "Ctrl-Shift-z",
            preventDefault: true,
            run: (view) => {
              const wrapping = wrapCompartment.get(view.state) === EditorView.lineWrapping;
              view.dispatch({ effects: wrapCompartment.reconfigure(wrapping ? [] : EditorView.lineWrapping) });
              setWrap(!wrapping);
              return true;
            },
          },
        ]),
      ),
    ],
    // `wrap` is read only for a new editor (a new documentKey); the compartment keeps it otherwise.
    [known, wrap, wrapCompartment, ariaLabel, readOnly],
  );

  return (
    <div
      data-wrap={wrap ? "on" : "off"}
      data-testid="prompt-editor"
      className="grid h-full grid-rows-[minmax(0,1fr)_auto]"
      onFocus={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) onFocus?.();
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) onBlur?.();
      }}
    >
      <CodeMirror
        key={documentKey}
        value={value}
        onChange={handleChange}
        extensions={extensions}
        readOnly={readOnly}
        height="100%"
        className="min-h-0"
        theme="light"
        // Tab must move focus out of the editor, or keyboard users are trapped in it.
        indentWithTab={false}
        basicSetup={basicSetup}
      />
      <p className="flex h-6 items-center gap-1.5 border-t border-zinc-100 px-3 text-[11px] text-zinc-500">
        {readOnly && <span className="font-medium text-zinc-600">Read-only ·</span>}
        <span aria-live="polite">{wrap ? "Wrap on" : "Wrap off"}</span>
        <span aria-hidden="true">·</span>
        <kbd className="font-sans">Ctrl+Shift+Z</kbd>
      </p>
    </div>
  );
}
