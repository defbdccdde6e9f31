"use client";

import { useEffect } from "react";
import { sendAsPageLeaves } from "./api";
import { useDraftStore } from "./draft-store";
import { saveActiveText, usePromptStore } from "./prompt-store";

/**
 * Typing pauses this long save the text. Long enough that a save is not sent for every word
 * (saves run one at a time), short enough that a crash or a closed laptop loses a sentence at most.
 */
export const TEXT_SAVE_DELAY_MS = 1000;

/**
 * Saves the prompt's text while the person types (once typing pauses), besides the saves on blur,
 * on a prompt switch and before a run; and sends the text not yet saved when the page is left
 * (reload, tab closed, another address), so nothing typed is lost. Never bumps the version.
 */
export function useDraftAutosave({ enabled }: { enabled: boolean }): void {
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastText = useDraftStore.getState().prompt;
    const unsubscribe = useDraftStore.subscribe((draft) => {
      if (draft.prompt === lastText) return;
      lastText = draft.prompt;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void saveActiveText();
      }, TEXT_SAVE_DELAY_MS);
    });
    const sendUnsavedText = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      const { activeId, savedText } = usePromptStore.getState();
      const text = useDraftStore.getState().prompt;
      if (activeId && text !== savedText) sendAsPageLeaves(`/api/v1/prompts/${encodeURIComponent(activeId)}`, "PATCH", { text });
    };
    window.addEventListener("pagehide", sendUnsavedText);
    return () => {
      unsubscribe();
      window.removeEventListener("pagehide", sendUnsavedText);
      if (timer) clearTimeout(timer);
    };
  }, [enabled]);
}
