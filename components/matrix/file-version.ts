/**
 * The name a file of a matrix goes by, as `parallaxr matrix` names it: the file name without its
 * extension (v1.txt is version v1, tech-talk-01.md is input tech-talk-01). Names become parts of
 * run ids and folder names, so one the API would refuse is said here, with the file, before the
 * request is sent.
 */
import { MATRIX_NAME_PATTERN } from "@/lib/api/matrix";

/** The version or id of a file, or why its name cannot be one. */
export function fileVersion(fileName: string): { ok: true; name: string } | { ok: false; error: string } {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const dot = base.lastIndexOf(".");
  const name = dot > 0 ? base.slice(0, dot) : base;
  if (!MATRIX_NAME_PATTERN.test(name) || name.length > 200) {
    return {
      ok: false,
      error: `${base}: "${name}" cannot name a version or input. Rename the file to letters, digits, ".", "_", "-" and "@" only, starting with a letter or digit (no ".."), and upload it again.`,
    };
  }
  return { ok: true, name };
}

/** The extensions a prompt file may have: .txt and .md are templates with {{input}}, .yaml/.yml/.json prompts with {input}. */
export const PROMPT_FILE_ACCEPT = ".txt,.md,.markdown,.yaml,.yml,.json,text/plain,text/markdown,text/yaml,application/json";
/** The extensions an input file may have. */
export const INPUT_FILE_ACCEPT = ".txt,.md,.markdown,text/plain,text/markdown";
