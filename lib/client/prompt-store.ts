// The stored prompts and which one the editor shows. The editor's text lives in the draft store;
// this store knows what the server last saved, so autosave sends only real changes, one at a time.
import { create } from "zustand";
import { useDraftStore } from "./draft-store";
import * as promptsApi from "./prompts-api";
import type { PromptItem, PromptType, SaveState } from "./workbench-types";

type PromptState = {
  prompts: PromptItem[];
  activeId: string | null;
  /** The text the server has for the active prompt. */
  savedText: string;
  saveState: SaveState;
  graderId: string | null;
  /** The model that grades every column of the next run; null: the first column's model. */
  graderModel: { provider: string; model: string } | null;
  /** The last failure of a prompt action (create, rename, delete, switch), for an alert. */
  error: string | null;
};

const initial: PromptState = {
  prompts: [],
  activeId: null,
  savedText: "",
  saveState: { status: "saved" },
  graderId: null,
  graderModel: null,
  error: null,
};

export const usePromptStore = create<PromptState>()(() => initial);

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function replacePrompt(prompt: PromptItem) {
  usePromptStore.setState((state) => ({
    prompts: state.prompts.some((p) => p.id === prompt.id)
      ? state.prompts.map((p) => (p.id === prompt.id ? prompt : p))
      : [prompt, ...state.prompts],
  }));
}

/** The prompt the editor shows, or null before the prompts have loaded. */
export function useActivePrompt(): PromptItem | null {
  return usePromptStore((state) => state.prompts.find((prompt) => prompt.id === state.activeId) ?? null);
}

/** Shows a prompt in the editor (without saving the one shown before: callers do that first). */
function showPrompt(prompt: PromptItem | null) {
  usePromptStore.setState({
    activeId: prompt?.id ?? null,
    savedText: prompt?.text ?? "",
    saveState: { status: "saved" },
  });
  useDraftStore.getState().setPrompt(prompt?.text ?? "");
}

// Saves run one after another, so an older text never lands after a newer one.
let saving: Promise<void> = Promise.resolve();

/**
 * Saves the editor's text to the active prompt if it changed (autosave: on blur, before a switch
 * and before a run). Never bumps the version. Resolves true when the server has the text.
 */
export function saveActiveText(): Promise<boolean> {
  const result = saving.then(async () => {
    const { activeId, savedText } = usePromptStore.getState();
    const text = useDraftStore.getState().prompt;
    if (!activeId || text === savedText) return true;
    usePromptStore.setState({ saveState: { status: "saving" } });
    try {
      const saved = await promptsApi.updatePrompt(activeId, { text });
      replacePrompt(saved);
      const stillActive = usePromptStore.getState().activeId === activeId;
      if (stillActive) {
        const current = useDraftStore.getState().prompt;
        usePromptStore.setState({ savedText: text, saveState: { status: current === text ? "saved" : "unsaved" } });
      }
      return true;
    } catch (error) {
      usePromptStore.setState({ saveState: { status: "error", message: `Not saved: ${messageOf(error)}` } });
      return false;
    }
  });
  saving = result.then(() => undefined);
  return result;
}

/** Marks the text as edited since the last save (called on each editor change). */
export function noteTextEdited(text: string) {
  const { savedText, saveState } = usePromptStore.getState();
  const status = text === savedText ? "saved" : "unsaved";
  if (saveState.status !== status && saveState.status !== "saving") usePromptStore.setState({ saveState: { status } });
}

/**
 * First load: seeds the examples once per user, then opens the prompt, dataset, grader and
 * columns the server kept from the last visit (or the first generator prompt).
 */
export async function loadPrompts(): Promise<promptsApi.WorkbenchSetup> {
  await promptsApi.seedExamples();
  const [prompts, setup] = await Promise.all([promptsApi.listPrompts(), promptsApi.getWorkbenchSetup()]);
  const active =
    prompts.find((prompt) => prompt.id === setup.activePromptId) ??
    prompts.find((prompt) => prompt.type === "generator") ??
    prompts[0] ??
    null;
  usePromptStore.setState({ prompts, graderId: setup.graderPromptId });
  showPrompt(active);
  return setup;
}

/** Saves the current text, then opens another prompt in the editor. */
export async function switchPrompt(id: string): Promise<void> {
  if (usePromptStore.getState().activeId === id) return;
  await saveActiveText();
  try {
    const prompt = await promptsApi.getPrompt(id);
    replacePrompt(prompt);
    showPrompt(prompt);
    await promptsApi.saveWorkbenchSetup({ activePromptId: id });
  } catch (error) {
    usePromptStore.setState({ error: `Could not open the prompt: ${messageOf(error)}` });
  }
}

function unusedName(type: PromptType): string {
  const base = type === "grader" ? "Untitled grader" : "Untitled prompt";
  const names = new Set(usePromptStore.getState().prompts.map((prompt) => prompt.name));
  if (!names.has(base)) return base;
  let n = 2;
  while (names.has(`${base} ${n}`)) n += 1;
  return `${base} ${n}`;
}

const STARTER_TEXT: Record<PromptType, string> = {
  generator: "",
  grader:
    "Grade this answer:\n\n{{output}}\n\nThink inside <thinking></thinking>, then give a grade from 0 to 1 inside <response></response>.",
};

/** Saves the current text, creates a prompt and opens it. */
export async function createNewPrompt(type: PromptType): Promise<void> {
  await saveActiveText();
  try {
    const prompt = await promptsApi.createPrompt({ name: unusedName(type), type, text: STARTER_TEXT[type] });
    replacePrompt(prompt);
    showPrompt(prompt);
    await promptsApi.saveWorkbenchSetup({ activePromptId: prompt.id });
  } catch (error) {
    usePromptStore.setState({ error: `Could not create the prompt: ${messageOf(error)}` });
  }
}

/** Renames the active prompt; the server starts its version count again at 1. */
export async function renameActivePrompt(name: string): Promise<void> {
  const { activeId } = usePromptStore.getState();
  if (!activeId) return;
  try {
    replacePrompt(await promptsApi.updatePrompt(activeId, { name }));
  } catch (error) {
    usePromptStore.setState({ error: `Could not rename the prompt: ${messageOf(error)}` });
  }
}

/** Deletes a prompt for good; when it was open, the editor opens another (or a new one). */
export async function deletePromptForGood(id: string): Promise<void> {
  try {
    await promptsApi.deletePrompt(id);
  } catch (error) {
    usePromptStore.setState({ error: `Could not delete the prompt: ${messageOf(error)}` });
    return;
  }
  const state = usePromptStore.getState();
  const prompts = state.prompts.filter((prompt) => prompt.id !== id);
  usePromptStore.setState({ prompts, graderId: state.graderId === id ? null : state.graderId });
  if (state.activeId !== id) return;
  const next = prompts.find((prompt) => prompt.type === "generator") ?? prompts[0] ?? null;
  if (next) {
    showPrompt(next);
    await promptsApi.saveWorkbenchSetup({ activePromptId: next.id }).catch(() => {});
  } else {
    await createNewPrompt("generator");
  }
}

/** Chooses the grader that grades each cell of the next run (null: none, grade by hand). */
export async function chooseGrader(id: string | null): Promise<void> {
  const previous = usePromptStore.getState().graderId;
  usePromptStore.setState({ graderId: id });
  try {
    await promptsApi.saveWorkbenchSetup({ graderPromptId: id });
  } catch (error) {
    usePromptStore.setState({ graderId: previous, error: `Could not choose the grader: ${messageOf(error)}` });
  }
}

/** Chooses the model that grades every column of the next run (null: the first column's model). */
export function chooseGraderModel(model: { provider: string; model: string } | null): void {
  usePromptStore.setState({ graderModel: model });
}

/** Reads the active prompt again (its version moves on Run when the text changed). */
export async function refreshActivePrompt(): Promise<void> {
  const { activeId } = usePromptStore.getState();
  if (!activeId) return;
  try {
    replacePrompt(await promptsApi.getPrompt(activeId));
  } catch {
    // The label stays one run behind until the next refresh; nothing is lost.
  }
}

export function clearPromptError() {
  usePromptStore.setState({ error: null });
}
