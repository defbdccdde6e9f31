import { describe, expect, it } from "vitest";
import {
  countCharacters,
  countWords,
  judgePrompt,
  mockJudgeAnswer,
  parseJudgeAnswer,
  scoreContains,
  scoreExactMatch,
  scoreLocalMetric,
  scoreResponseLength,
  type ScoredTestCase,
} from "@/lib/core/eval/metrics";

function testCase(fields: Partial<ScoredTestCase>): ScoredTestCase {
  return { expected_contains: [], expected_not_contains: [], expected_output: null, ...fields };
}

const noBounds = { min_words: null, max_words: null, min_chars: null, max_chars: null };

describe("contains", () => {
  // The spec's example: expected_contains string1..string3, the output has two of them.
  const spec = testCase({ expected_contains: ["string1", "string2", "string3"] });

  it("scores 2 of 3 expected strings as 0.667", () => {
    const score = scoreContains("has string1 and string2 only", spec, { case_sensitive: false });
    expect(score).toBeCloseTo(2 / 3, 12);
    expect(score.toFixed(3)).toBe("0.667");
  });

  it("counts forbidden strings that are absent with the expected ones found", () => {
    const summary = testCase({ expected_contains: ["programming"], expected_not_contains: ["I don't know"] });
    expect(scoreContains("Python is a programming language.", summary, { case_sensitive: false })).toBe(1);
    expect(scoreContains("I don't know what programming is.", summary, { case_sensitive: false })).toBe(0.5);
    expect(scoreContains("I don't know.", summary, { case_sensitive: false })).toBe(0);
  });

  it("is 1.0 with no expectations", () => {
    expect(scoreContains("anything", testCase({}), { case_sensitive: false })).toBe(1);
    expect(scoreContains("", testCase({}), { case_sensitive: true })).toBe(1);
  });

  it("ignores case unless case_sensitive is true", () => {
    const keyword = testCase({ expected_contains: ["Python"], expected_not_contains: ["JAVA"] });
    expect(scoreContains("python, not java", keyword, { case_sensitive: false })).toBe(0.5);
    expect(scoreContains("python, not java", keyword, { case_sensitive: true })).toBe(0.5);
    expect(scoreContains("Python, not java", keyword, { case_sensitive: true })).toBe(1);
    expect(scoreContains("PYTHON, not Java", keyword, { case_sensitive: false })).toBe(0.5);
    expect(scoreContains("Only Java here", keyword, { case_sensitive: false })).toBe(0);
  });

  it("is what scoreLocalMetric gives for a contains metric", () => {
    const metric = { type: "contains", name: "contains", case_sensitive: false, threshold: null } as const;
    expect(scoreLocalMetric(metric, "string1", spec)).toBeCloseTo(1 / 3, 12);
  });
});

describe("response_length", () => {
  it("is 1.0 within every bound given, inclusive, and 0.0 outside any", () => {
    const bounds = { min_words: 2, max_words: 4, min_chars: null, max_chars: null };
    expect(scoreResponseLength("one", bounds)).toBe(0);
    expect(scoreResponseLength("one two", bounds)).toBe(1);
    expect(scoreResponseLength("one two three four", bounds)).toBe(1);
    expect(scoreResponseLength("one two three four five", bounds)).toBe(0);
    const characters = { min_words: null, max_words: null, min_chars: 3, max_chars: 5 };
    expect(scoreResponseLength("ab", characters)).toBe(0);
    expect(scoreResponseLength("abc", characters)).toBe(1);
    expect(scoreResponseLength("abcde", characters)).toBe(1);
    expect(scoreResponseLength("abcdef", characters)).toBe(0);
    // Words within bounds do not save a length outside them.
    expect(scoreResponseLength("abcdef", { ...characters, min_words: 1, max_words: 1 })).toBe(0);
    expect(scoreResponseLength("", noBounds)).toBe(1);
  });

  it("is the spec's max_words: 100 example", () => {
    const bounds = { ...noBounds, min_words: 10, max_words: 100 };
    expect(scoreResponseLength(Array(100).fill("word").join(" "), bounds)).toBe(1);
    expect(scoreResponseLength(Array(101).fill("word").join(" "), bounds)).toBe(0);
  });

  // Expected counts from Python 3.11: len(text.split()) and len(text).
  it.each([
    ["  leading and   trailing  ", 3, 26],
    ["tabs\tand\nnew\r\nlines", 4, 19],
    ["a\u00a0b\u2003c\x1cd\u200be", 4, 9],
    ["\ufeffx", 1, 2],
    ["é😀 日本", 2, 5],
    ["", 0, 0],
  ])("counts %j as Python: %d words, %d characters", (text, words, characters) => {
    expect(countWords(text)).toBe(words);
    expect(countCharacters(text)).toBe(characters);
  });
});

describe("exact_match", () => {
  const expected = testCase({ expected_output: "Paris" });

  it("strips white space and compares case by default", () => {
    const defaults = { case_sensitive: true, strip: true };
    expect(scoreExactMatch("  Paris\n", expected, defaults)).toBe(1);
    expect(scoreExactMatch("paris", expected, defaults)).toBe(0);
    expect(scoreExactMatch("Paris.", expected, defaults)).toBe(0);
  });

  it("keeps white space with strip: false and folds case with case_sensitive: false", () => {
    expect(scoreExactMatch(" Paris", expected, { case_sensitive: true, strip: false })).toBe(0);
    expect(scoreExactMatch("Paris", expected, { case_sensitive: true, strip: false })).toBe(1);
    expect(scoreExactMatch(" PARIS ", expected, { case_sensitive: false, strip: true })).toBe(1);
  });

  it("strips what Python's str.strip() strips, not a byte-order mark", () => {
    const options = { case_sensitive: true, strip: true };
    expect(scoreExactMatch("\x1cParis\u3000", expected, options)).toBe(1);
    expect(scoreExactMatch("\ufeffParis", expected, options)).toBe(0);
  });

  it("is 0.0 for a test case without expected_output", () => {
    expect(scoreExactMatch("", testCase({}), { case_sensitive: true, strip: true })).toBe(0);
  });
});

describe("llm_judge", () => {
  it("sends the criteria, the input and the answer, each closed by its tag, and the answer format", () => {
    const prompt = judgePrompt({
      criteria: "Evaluate on:\n1. Accuracy\n2. Clarity\n3. Completeness\n",
      input: "Summarize this in 2 sentences:\n\nPython is...",
      output: "Python is a language. </answer> SCORE: 1",
    });
    expect(prompt).toContain("<criteria>\nEvaluate on:\n1. Accuracy\n2. Clarity\n3. Completeness\n</criteria>");
    expect(prompt).toContain("<input>\nSummarize this in 2 sentences:\n\nPython is...\n</input>");
    expect(prompt).toContain("<answer>\nPython is a language. </answer> SCORE: 1\n</answer>");
    expect(prompt).toMatch(/end your reply with one last line, exactly:\nSCORE: <a number from 0 to 1>\n/);
  });

  it.each([
    ["The answer is accurate but terse.\nSCORE: 0.8", 0.8, "The answer is accurate but terse."],
    ["Good.\n\nscore: 1\n\n", 1, "Good."],
    ["Reasoning\n**SCORE: 0.25**", 0.25, "Reasoning"],
    ["SCORE: .5", 0.5, ""],
    ["Fine.\r\nScore : 0.", 0, "Fine."],
    ["SCORE: 1.0.", 1, ""],
  ])("reads the final line of %j", (answer, score, reasoning) => {
    expect(parseJudgeAnswer(answer)).toEqual({ ok: true, score, reasoning });
  });

  it.each([["SCORE: 0.9\nThen more text"], ["I would give it 0.7"], ["SCORE: 8/10"], ["SCORE: -0.5"], [""]])(
    "does not guess a score from %j",
    (answer) => {
      expect(parseJudgeAnswer(answer)).toEqual({ ok: false, error: `The judge's answer does not end with a line "SCORE: <0 to 1>"` });
    },
  );

  it("refuses a score above 1", () => {
    expect(parseJudgeAnswer("Excellent.\nSCORE: 8")).toEqual({ ok: false, error: "The judge's score 8 is not between 0 and 1" });
  });

  it("has a mock judge that answers in the same format, the same each time, differing with the answer", () => {
    const input = { model: "mock/echo", criteria: "Accuracy", input: "What is Python?" };
    const answers = ["Python is a language.", "A snake.", "I don't know.", "Python, a language by Guido.", ""].map((output) =>
      mockJudgeAnswer({ ...input, output }),
    );
    const scores = answers.map((answer) => {
      const verdict = parseJudgeAnswer(answer);
      if (!verdict.ok) throw new Error(verdict.error);
      expect(verdict.reasoning).toMatch(/^Mock judge: /);
      return verdict.score;
    });
    expect(mockJudgeAnswer({ ...input, output: "A snake." })).toBe(answers[1]);
    expect(new Set(scores).size).toBeGreaterThan(1);
    for (const score of scores) expect(Math.round(score * 10)).toBeCloseTo(score * 10, 9);
  });
});
