import Papa from "papaparse";
import { describe, it, expect } from "vitest";
import { DatasetParseError, parseDatasetText } from "@/lib/formats/parse-dataset";

/** The DatasetParseError thrown by parsing, for asserting on its fields. */
function parseError(text: string, fileName: string): DatasetParseError {
  try {
    parseDatasetText(text, fileName);
  } catch (error) {
    if (error instanceof DatasetParseError) return error;
    throw error;
  }
  throw new Error("expected a DatasetParseError");
}

/** mulberry32: a small seeded generator, so the round-trip test is repeatable. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("DatasetParseError", () => {
  it("names the file and row in its message and keeps the parts", () => {
    const error = new DatasetParseError({
      file: "data.csv",
      row: 7,
      problem: "row has 4 fields but the header has 3.",
      hint: "Quote values that contain commas.",
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("DatasetParseError");
    expect(error.message).toBe("data.csv, row 7: row has 4 fields but the header has 3. Quote values that contain commas.");
    expect(error).toMatchObject({ file: "data.csv", row: 7, hint: "Quote values that contain commas." });
  });

  it("leaves the row out when there is none", () => {
    const error = new DatasetParseError({ file: "d.json", row: null, problem: "the file is empty.", hint: "Add rows." });
    expect(error.message).toBe("d.json: the file is empty. Add rows.");
  });
});

describe("parseDatasetText: CSV", () => {
  it("reads a header and rows into string records", () => {
    expect(
      parseDatasetText("provider,model,source\nopenrouter,anthropic/claude-sonnet-4,Wikipedia\nmock,mock,42\n", "experiments.csv"),
    ).toEqual({
      headers: ["provider", "model", "source"],
      rows: [
        { provider: "openrouter", model: "anthropic/claude-sonnet-4", source: "Wikipedia" },
        { provider: "mock", model: "mock", source: "42" },
      ],
      delimiter: ",",
    });
  });

  it("accepts a file without a trailing newline, and a header with no rows", () => {
    expect(parseDatasetText("a,b\n1,2", "d.csv").rows).toEqual([{ a: "1", b: "2" }]);
    expect(parseDatasetText("a,b\n", "d.csv")).toEqual({ headers: ["a", "b"], rows: [], delimiter: "," });
  });

  it("strips a UTF-8 byte order mark", () => {
    const result = parseDatasetText("\ufefftopic,source\nAI,Wikipedia\n", "d.csv");
    expect(result.headers).toEqual(["topic", "source"]);
    expect(result.rows[0]).toEqual({ topic: "AI", source: "Wikipedia" });
  });

  it("handles quoted commas, doubled quotes and newlines inside quotes", () => {
    const text = 'name,quote\n"Smith, Jane","She said ""hi""\nand left"\nplain,"" \n';
    expect(parseDatasetText(text, "d.csv").rows).toEqual([
      { name: "Smith, Jane", quote: 'She said "hi"\nand left' },
      { name: "plain", quote: "" },
    ]);
  });

  it("keeps CRLF inside a quoted value as written", () => {
    expect(parseDatasetText('a,b\r\n"x\r\ny",z\r\n', "d.csv").rows).toEqual([{ a: "x\r\ny", b: "z" }]);
  });

  it("reads CRLF, LF and lone CR line endings, even mixed in one file", () => {
    const expected = [
      { a: "1", b: "2" },
      { a: "3", b: "4" },
      { a: "5", b: "6" },
    ];
    expect(parseDatasetText("a,b\r\n1,2\r\n3,4\r\n5,6\r\n", "d.csv").rows).toEqual(expected);
    expect(parseDatasetText("a,b\r1,2\r3,4\r5,6", "d.csv").rows).toEqual(expected);
    expect(parseDatasetText("a,b\r\n1,2\n3,4\r\n5,6\n", "d.csv").rows).toEqual(expected);
  });

  it("skips fully empty lines but keeps lines of empty fields", () => {
    const result = parseDatasetText("\n\na,b\n\n1,2\r\n\r\n,\n\n", "d.csv");
    expect(result.rows).toEqual([
      { a: "1", b: "2" },
      { a: "", b: "" },
    ]);
  });

  it("keeps a quoted empty value on its own line as a row", () => {
    expect(parseDatasetText('text\nhello\n""\nbye\n', "d.csv").rows).toEqual([{ text: "hello" }, { text: "" }, { text: "bye" }]);
  });

  it("trims header names but not values", () => {
    expect(parseDatasetText(" topic ,\tsource\n  AI , Wiki \n", "d.csv")).toEqual({
      headers: ["topic", "source"],
      rows: [{ topic: "  AI ", source: " Wiki " }],
      delimiter: ",",
    });
  });

  it("fills missing trailing fields with empty strings", () => {
    expect(parseDatasetText("a,b,c\n1\n1,2\n", "d.csv").rows).toEqual([
      { a: "1", b: "", c: "" },
      { a: "1", b: "2", c: "" },
    ]);
  });

  it("keeps a quote in the middle of an unquoted value as text", () => {
    expect(parseDatasetText('a,b\n5" screen,x\n', "d.csv").rows).toEqual([{ a: '5" screen', b: "x" }]);
  });

  it("tolerates spaces between a closing quote and the comma", () => {
    expect(parseDatasetText('a,b\n"x" ,y\n', "d.csv").rows).toEqual([{ a: "x", b: "y" }]);
  });

  it("treats unknown extensions as CSV", () => {
    expect(parseDatasetText("a\n1\n", "data.txt").rows).toEqual([{ a: "1" }]);
    expect(parseDatasetText("a\n1\n", "DATA.CSV").rows).toEqual([{ a: "1" }]);
    expect(parseDatasetText("a\n1\n", "noextension").rows).toEqual([{ a: "1" }]);
  });

  it("stores a __proto__ column as an ordinary value", () => {
    const result = parseDatasetText("__proto__,b\nx,y\n", "d.csv");
    expect(Object.keys(result.rows[0])).toEqual(["__proto__", "b"]);
    expect(Object.getOwnPropertyDescriptor(result.rows[0], "__proto__")?.value).toBe("x");
    expect(Object.getPrototypeOf(result.rows[0])).toBe(Object.prototype);
  });

  describe("delimiters", () => {
    it("reads a European spreadsheet's semicolon CSV, decimal commas quoted, and says so", () => {
      expect(parseDatasetText('a;b\n"1,5";2\n', "excel.csv")).toEqual({
        headers: ["a", "b"],
        rows: [{ a: "1,5", b: "2" }],
        delimiter: ";",
      });
      expect(parseDatasetText("name;price\nTea;2,50\r\nCake;3\r\n", "prices.csv").rows).toEqual([
        { name: "Tea", price: "2,50" },
        { name: "Cake", price: "3" },
      ]);
    });

    it("reads a tab-separated file, with commas and semicolons in its values", () => {
      expect(parseDatasetText("topic\tnote\nAI\tyes, no; maybe\n", "d.tsv")).toEqual({
        headers: ["topic", "note"],
        rows: [{ topic: "AI", note: "yes, no; maybe" }],
        delimiter: "\t",
      });
    });

    it("decides by the header, outside quotes: commas on a tie and for one column", () => {
      expect(parseDatasetText('"a;b",c\n"1;2",3\n', "d.csv")).toMatchObject({ headers: ["a;b", "c"], delimiter: "," });
      expect(parseDatasetText("a,b;c\n1,2;3\n", "d.csv")).toMatchObject({ headers: ["a", "b;c"], delimiter: "," });
      expect(parseDatasetText("topic\nx;y\n", "d.csv")).toMatchObject({ headers: ["topic"], rows: [{ topic: "x;y" }], delimiter: "," });
      expect(parseDatasetText("\n\na;b;c\n1;2;3\n", "d.csv")).toMatchObject({ headers: ["a", "b", "c"], delimiter: ";" });
    });

    it("names the delimiter it used in the fix for a row with too many fields", () => {
      const error = parseError("a;b\n1;2;3\n", "excel.csv");
      expect(error.message).toBe("excel.csv, row 2: row has 3 fields but the header has 2. Quote values that contain semicolons.");
      expect(parseError("a\tb\n1\t2\t3\n", "d.tsv").hint).toBe("Quote values that contain tabs.");
      expect(parseError("a;b;\n1;2\n", "d.csv").hint).toContain("remove a trailing semicolon");
    });
  });

  describe("errors", () => {
    it("rejects an empty file", () => {
      for (const text of ["", "\ufeff", "\n\r\n\n"]) {
        const error = parseError(text, "empty.csv");
        expect(error.row).toBeNull();
        expect(error.message).toMatch(/^empty\.csv: the file is empty\. Add a header row/);
      }
    });

    it("rejects a row with more fields than the header, naming the line", () => {
      const error = parseError("a,b,c\n1,2,3\n1,2,3\n\n1,2,3\n1,2,3\n1,2,3,4\n", "data.csv");
      expect(error.message).toBe("data.csv, row 7: row has 4 fields but the header has 3. Quote values that contain commas.");
      expect(error.row).toBe(7);
      expect(error.file).toBe("data.csv");
      expect(error.hint).toBe("Quote values that contain commas.");
    });

    it("counts lines inside quoted values when numbering rows", () => {
      const error = parseError('a,b\n"multi\nline\r\nvalue",x\n1,2,3\n', "d.csv");
      expect(error.row).toBe(5);
    });

    it("counts a trailing comma as an extra field", () => {
      expect(parseError("a,b\n1,2,\n", "d.csv").row).toBe(2);
    });

    it("rejects a duplicate header name, after trimming", () => {
      const error = parseError("topic,source, topic\nx,y,z\n", "d.csv");
      expect(error.row).toBe(1);
      expect(error.message).toContain('the column name "topic" appears twice (columns 1 and 3)');
      expect(error.hint).toMatch(/Rename/);
    });

    it("rejects an empty header name, including one from a trailing comma", () => {
      expect(parseError("a,,c\n1,2,3\n", "d.csv").message).toContain("column 2 of the header has no name");
      expect(parseError("a,b,\n1,2,3\n", "d.csv").message).toContain("column 3 of the header has no name");
      expect(parseError("a,  ,c\n", "d.csv").row).toBe(1);
    });

    it("rejects an unterminated quote, naming the line it opens on", () => {
      const error = parseError('a,b\n1,2\n3,"never closed\n4,5\n', "d.csv");
      expect(error.row).toBe(3);
      expect(error.message).toContain("a quoted value is never closed");
      expect(error.hint).toMatch(/closing quote/);
    });

    it("rejects an unterminated quote in the header", () => {
      expect(parseError('"a,b\n1,2\n', "d.csv").row).toBe(1);
    });

    it("rejects text after a closing quote instead of reading on into later lines", () => {
      const error = parseError('a,b\n"x"y,1\n2,3\n', "d.csv");
      expect(error.row).toBe(2);
      expect(error.message).toContain("text after its closing quote");
    });

    it("is an Error a caller can catch by class", () => {
      expect(() => parseDatasetText("a,a\n", "d.csv")).toThrow(DatasetParseError);
    });
  });

  it("reads back exactly what papaparse writes, for awkward values", () => {
    const random = seededRandom(2024);
    const pieces = ["a", "b c", ",", '"', "\n", "\r\n", " ", "é", "😀", "x,y", '""', "'", ";", "\t", "{{topic}}"];
    const headers = ["id", "text", "notes", "extra"];
    const rows = Array.from({ length: 300 }, (_, index) => {
      const row: Record<string, string> = { id: String(index) };
      for (const header of headers.slice(1)) {
        const length = Math.floor(random() * 6);
        row[header] = Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)]).join("");
      }
      return row;
    });
    for (const newline of ["\n", "\r\n"]) {
      const text = Papa.unparse(rows, { columns: headers, newline });
      expect(parseDatasetText(text, "round-trip.csv")).toEqual({ headers, rows, delimiter: "," });
    }
  });

  it("parses a 20 MB file completely", () => {
    // Speed is measured by bench/, not here; this checks that nothing is lost at size.
    const line = '17,Machine learning,Encyclopedia,"a value, with a comma and ""quotes""",plain notes here\n';
    const text = "id,topic,source,text,notes\n" + line.repeat(Math.ceil(20_000_000 / line.length));
    const result = parseDatasetText(text, "big.csv");
    expect(result.rows.length).toBe(Math.ceil(20_000_000 / line.length));
    expect(result.rows.at(-1)?.text).toBe('a value, with a comma and "quotes"');
  });
});

describe("parseDatasetText: JSON", () => {
  it("reads an array of flat objects, with headers in first-seen order", () => {
    const text = JSON.stringify([
      { topic: "AI", source: "Wikipedia" },
      { source: "Book", level: "easy" },
    ]);
    expect(parseDatasetText(text, "data.json")).toEqual({
      headers: ["topic", "source", "level"],
      rows: [
        { topic: "AI", source: "Wikipedia", level: "" },
        { topic: "", source: "Book", level: "easy" },
      ],
    });
  });

  it("reads an object with a rows array", () => {
    expect(parseDatasetText('{"name": "set", "rows": [{"a": "1"}]}', "DATA.JSON")).toEqual({ headers: ["a"], rows: [{ a: "1" }] });
  });

  it("turns every value into text", () => {
    const text = JSON.stringify([{ n: 42, f: 1.5, t: true, b: false, z: null, s: "x", o: { k: [1, "two"] }, l: [1, 2] }]);
    expect(parseDatasetText(text, "d.json").rows[0]).toEqual({
      n: "42",
      f: "1.5",
      t: "true",
      b: "false",
      z: "",
      s: "x",
      o: '{"k":[1,"two"]}',
      l: "[1,2]",
    });
  });

  it("accepts an empty array and a byte order mark", () => {
    expect(parseDatasetText("\ufeff[]", "d.json")).toEqual({ headers: [], rows: [] });
  });

  it("rejects an empty file", () => {
    const error = parseError("  \n", "d.json");
    expect(error.row).toBeNull();
    expect(error.message).toContain("the file is empty");
  });

  it("rejects a document that is not a list", () => {
    expect(parseError('{"data": []}', "d.json").message).toContain("holds an object, not a list of rows");
    expect(parseError('"text"', "d.json").message).toContain("holds a string, not a list of rows");
    expect(parseError('{"rows": 3}', "d.json").message).toContain("holds an object");
  });

  it("rejects an element that is not an object, naming its index", () => {
    const error = parseError('[{"a": 1}, {"a": 2}, [3]]', "d.json");
    expect(error.message).toBe(
      'd.json: the item at index 2 is an array, not an object. Make every item an object of column names to values, like {"topic": "AI"}.',
    );
    expect(parseError('[{"a": 1}, null]', "d.json").message).toContain("index 1 is null");
    expect(parseError('{"rows": ["x"]}', "d.json").message).toContain("index 0 is a string");
  });

  it("rejects invalid JSON with the line and column of the error", () => {
    const error = parseError('[\n  {"a": 1},\n  {"a": }\n]', "d.json");
    expect(error.file).toBe("d.json");
    expect(error.message).toBe(
      'd.json: the file is not valid JSON at line 3, column 9: unexpected "}". Check for a missing comma, quote or bracket there.',
    );
  });

  it.each([
    ['[{"a": 1,}]', 'line 1, column 10: unexpected "}"'],
    ['[{"a": 1}', "line 1, column 10: the file ends before the JSON is complete"],
    ['[{"a" 1}]', 'line 1, column 7: unexpected "1"'],
    ["[{'a': 1}]", `line 1, column 3: unexpected "'"`],
    ['[{"a": "x\ny"}]', 'line 1, column 10: unexpected "\\n"'],
    ['[{"a": tru}]', 'line 1, column 8: unexpected "t"'],
    ['[{"a": "\\q"}]', 'line 1, column 9: unexpected "\\\\"'],
    ["[1]\n[2]", 'line 2, column 1: unexpected "["'],
    ["[01]", 'line 1, column 3: unexpected "1"'],
    ['[{"a": "😀"}, x]', 'line 1, column 14: unexpected "x"'],
  ])("locates the error in %j at %s", (text, location) => {
    expect(parseError(text, "d.json").message).toContain(`at ${location}.`);
  });

  it("does not treat a .json file as CSV or the reverse", () => {
    expect(() => parseDatasetText("a,b\n1,2\n", "d.json")).toThrow(/not valid JSON/);
    expect(parseDatasetText('[{"a": 1}]', "d.csv").headers).toEqual(['[{"a": 1}]']);
  });
});
