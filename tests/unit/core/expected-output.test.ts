import { describe, it, expect } from "vitest";
import { detectExpectedOutput, validateOutput } from "@/lib/core/expected-output";

const RESPONSE = { response: true, json: false };
const JSON_ONLY = { response: false, json: true };
const BOTH = { response: true, json: true };
const NOTHING = { response: false, json: false };

describe("detectExpectedOutput", () => {
  it("detects a <response> opening tag in any case", () => {
    expect(detectExpectedOutput("Answer inside <response></response>.").response).toBe(true);
    expect(detectExpectedOutput("Put it in <RESPONSE> tags").response).toBe(true);
    expect(detectExpectedOutput('Use <response format="short">').response).toBe(true);
  });

  it("does not take a closing tag alone or a similar word as a response tag", () => {
    expect(detectExpectedOutput("end with </response>").response).toBe(false);
    expect(detectExpectedOutput("<responses> and response").response).toBe(false);
  });

  it("detects json as a word in any case", () => {
    expect(detectExpectedOutput("Reply in JSON.").json).toBe(true);
    expect(detectExpectedOutput("return json").json).toBe(true);
    expect(detectExpectedOutput("a (Json) object").json).toBe(true);
    expect(detectExpectedOutput("```json").json).toBe(true);
  });

  it("does not take json inside a longer word", () => {
    expect(detectExpectedOutput("the jsonl file and myjson").json).toBe(false);
  });

  it("detects both, or neither", () => {
    expect(detectExpectedOutput("Give JSON in <response> tags")).toEqual({ response: true, json: true });
    expect(detectExpectedOutput("Summarize {{topic}}")).toEqual({ response: false, json: false });
  });
});

describe("validateOutput", () => {
  it("passes raw output through unchanged when nothing is expected", () => {
    const raw = "  <thinking>x</thinking> anything\n";
    expect(validateOutput(raw, NOTHING)).toEqual({ ok: true, parsed: raw });
  });

  describe("response sections", () => {
    it("extracts and trims the section content", () => {
      expect(validateOutput("Sure.\n<response>\n  Paris  \n</response>\nBye", RESPONSE)).toEqual({ ok: true, parsed: "Paris" });
    });

    it("matches tags case-insensitively and across lines", () => {
      expect(validateOutput("<RESPONSE>line 1\nline 2</Response>", RESPONSE)).toEqual({ ok: true, parsed: "line 1\nline 2" });
    });

    it("takes the last section when there are several", () => {
      expect(validateOutput("<response>draft</response> then <response>final</response>", RESPONSE)).toEqual({
        ok: true,
        parsed: "final",
      });
    });

    it("takes the section that belongs to the last closing tag when an opening tag repeats", () => {
      expect(validateOutput("I will answer in <response> tags. <response>final</response>", RESPONSE)).toEqual({
        ok: true,
        parsed: "final",
      });
    });

    it("accepts an empty section", () => {
      expect(validateOutput("<response></response>", RESPONSE)).toEqual({ ok: true, parsed: "" });
    });

    it("fails when the section is missing", () => {
      expect(validateOutput("Paris", RESPONSE)).toEqual({
        ok: false,
        reason: "Expected a <response>...</response> section; none was found",
      });
    });

    it("fails when the section is never closed", () => {
      expect(validateOutput("<response>Paris", RESPONSE)).toEqual({
        ok: false,
        reason: "Expected a <response>...</response> section; none was found",
      });
    });

    it("ignores a section mentioned inside a thinking block", () => {
      const raw = "<thinking>I should write <response>maybe</response></thinking>The answer is Paris.";
      expect(validateOutput(raw, RESPONSE).ok).toBe(false);
    });

    it("prefers the real section over one inside a thinking block that comes after it", () => {
      const raw = "<response>Paris</response><thinking>or <response>Lyon</response>?</thinking>";
      expect(validateOutput(raw, RESPONSE)).toEqual({ ok: true, parsed: "Paris" });
    });

    it("removes thinking blocks in any case, with several blocks", () => {
      const raw = "<Thinking>a</THINKING><response>ok</response><thinking>\n<response>no</response>\n</thinking>";
      expect(validateOutput(raw, RESPONSE)).toEqual({ ok: true, parsed: "ok" });
    });
  });

  describe("JSON", () => {
    it("accepts a JSON object and keeps the trimmed original text", () => {
      expect(validateOutput('\n {"a": 1,  "b": [1, 2]} \n', JSON_ONLY)).toEqual({ ok: true, parsed: '{"a": 1,  "b": [1, 2]}' });
    });

    it("accepts any JSON value", () => {
      expect(validateOutput("[1, 2]", JSON_ONLY)).toEqual({ ok: true, parsed: "[1, 2]" });
      expect(validateOutput('"text"', JSON_ONLY)).toEqual({ ok: true, parsed: '"text"' });
      expect(validateOutput("42", JSON_ONLY)).toEqual({ ok: true, parsed: "42" });
    });

    it("strips a ```json fence", () => {
      expect(validateOutput('```json\n{"a": 1}\n```', JSON_ONLY)).toEqual({ ok: true, parsed: '{"a": 1}' });
      expect(validateOutput("```JSON\r\n[1]\r\n```\n", JSON_ONLY)).toEqual({ ok: true, parsed: "[1]" });
    });

    it("strips a plain ``` fence and a one-line fence", () => {
      expect(validateOutput('```\n{"a": 1}\n```', JSON_ONLY)).toEqual({ ok: true, parsed: '{"a": 1}' });
      expect(validateOutput('```json {"a": 1}```', JSON_ONLY)).toEqual({ ok: true, parsed: '{"a": 1}' });
    });

    it("rejects prose around the JSON, naming the parser's error", () => {
      expect(validateOutput('Here you go: {"a": 1}', JSON_ONLY)).toEqual({
        ok: false,
        reason: expect.stringMatching(/^The output is not valid JSON: .+/),
      });
    });

    it("rejects broken JSON with the parser's message", () => {
      let parserMessage = "";
      try {
        JSON.parse('{"a": 1,}');
      } catch (error) {
        parserMessage = (error as Error).message;
      }
      expect(validateOutput('{"a": 1,}', JSON_ONLY)).toEqual({ ok: false, reason: `The output is not valid JSON: ${parserMessage}` });
    });

    it("rejects empty output", () => {
      expect(validateOutput("   ", JSON_ONLY).ok).toBe(false);
    });

    it("ignores thinking blocks before the JSON", () => {
      expect(validateOutput('<thinking>plan {</thinking>\n{"ok": true}', JSON_ONLY)).toEqual({ ok: true, parsed: '{"ok": true}' });
    });
  });

  describe("response and JSON together", () => {
    it("parses JSON inside the last response section", () => {
      const raw = '<thinking>...</thinking>Result:\n<response>\n```json\n{"answer": "Paris"}\n```\n</response>';
      expect(validateOutput(raw, BOTH)).toEqual({ ok: true, parsed: '{"answer": "Paris"}' });
    });

    it("reports the missing section before looking for JSON", () => {
      expect(validateOutput('{"answer": "Paris"}', BOTH)).toEqual({
        ok: false,
        reason: "Expected a <response>...</response> section; none was found",
      });
    });

    it("reports invalid JSON inside the section", () => {
      expect(validateOutput("<response>Paris</response>", BOTH)).toEqual({
        ok: false,
        reason: expect.stringMatching(/^The <response> section is not valid JSON: /),
      });
    });

    it("ignores valid JSON outside the section", () => {
      expect(validateOutput('{"a": 1} <response>not json</response>', BOTH).ok).toBe(false);
    });
  });
});
