import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { insertModels } from "@/lib/db/models/insert-models";
import { insertPrompt } from "@/lib/db/prompts/prompts";
import { insertDataset } from "@/lib/db/runs/insert-dataset";
import { updateWorkbenchState } from "@/lib/db/workbench/workbench-state";

// The answer's form shows what goes in it, so a model fills it in; the mock models, which echo
// their input, answer with the form itself, naming the row's topic, and the grader grades that.
const examplePrompt = `Explain {{topic}} to {{audience}} in two or three sentences, in this form:
<response>(your explanation of {{topic}} for {{audience}})</response>`;

// The grade's form comes last and empty: a model answers after the prompt and the grade is read from
// the last <response> section; a mock model fills the empty form with a made-up grade (the same
// for the same answer), so the first run with the mocks shows a spread of grades.
const exampleGrader = `You are grading an explanation of {{topic}} written for {{audience}}.

Explanation:
{{output}}

Is it accurate, and would {{audience}} understand it? Think inside <thinking></thinking>, then
give a grade from 0 (wrong or unclear) to 1 (accurate and clear) inside <response></response>.`;

const exampleRows = [
  { topic: "photosynthesis", audience: "a ten-year-old" },
  { topic: "compound interest", audience: "a new employee" },
  { topic: "how vaccines work", audience: "a worried parent" },
  { topic: "what a database index is", audience: "a product manager" },
  { topic: "why the sky is blue", audience: "a curious teenager" },
];

/**
 * Gives userId something to run on first load: an example prompt, a grader and a dataset, the
 * mock models in their registry, and a workbench opened on them. Runs once per user: the model
 * registry doubles as the marker, so running it again (or twice at once) adds nothing.
 */
export async function seedExamples({ db }: { db: Database }, { userId }: { userId: string }): Promise<{ seeded: boolean }> {
  return asUser(db, userId, async (tx) => {
    const added = await insertModels(tx, {
      models: [
        { provider: "mock", model: "echo", label: "Mock / echo" },
        { provider: "mock", model: "fast", label: "Mock / fast" },
      ],
    });
    if (added === 0) return { seeded: false };
    const prompt = await insertPrompt(tx, { name: "Explain it simply", text: examplePrompt, type: "generator" });
    const grader = await insertPrompt(tx, { name: "Clarity grader", text: exampleGrader, type: "grader" });
    const datasetId = await insertDataset(tx, { name: "topics.csv", source: "manual", headers: ["topic", "audience"], rows: exampleRows });
    // Open the example on the first visit, with the first mock model, so the grid is not empty, and
    // its grader, so the first run shows grades.
    await updateWorkbenchState(tx, {
      activePromptId: prompt.id,
      datasetId,
      graderPromptId: grader.id,
      columns: [{ provider: "mock", model: "echo", params: {} }],
    });
    return { seeded: true };
  });
}
