import { describe, expect, it } from "vitest";
import { parseDatasetText } from "@/lib/formats/parse-dataset";
import { csvField, writeCsv } from "@/lib/formats/write-csv";

describe("writeCsv", () => {
  it("quotes like Python's csv.writer (excel dialect, QUOTE_MINIMAL)", () => {
    // The expected text is what CPython 3.12 printed for the same rows:
    // w = csv.writer(s); w.writerow(["a", "b,c", 'say "hi"', "line\nbreak", "cr\rx", ""]);
    // w.writerow([""]); w.writerow([None, 1, 2.5]); w.writerow(["", ""]); w.writerow([" lead", "tab\there", "é ✓"])
    const text = writeCsv([
      ["a", "b,c", 'say "hi"', "line\nbreak", "cr\rx", ""],
      [""],
      [null, 1, 2.5],
      ["", ""],
      [" lead", "tab\there", "é ✓"],
    ]);
    expect(text).toBe('a,"b,c","say ""hi""","line\nbreak","cr\rx",\r\n""\r\n,1,2.5\r\n,\r\n lead,tab\there,é ✓\r\n');
  });

  it("writes nothing for no records", () => {
    expect(writeCsv([])).toBe("");
  });

  it("is read back to the same values by the dataset reader", () => {
    const rows = [
      { id: "1", text: 'He said "no",\nthen left.' },
      { id: "2", text: "" },
      { id: "3", text: "a\r\nb, c" },
    ];
    const text = writeCsv([["id", "text"], ...rows.map((row) => [row.id, row.text])]);
    expect(parseDatasetText(text, "round-trip.csv").rows).toEqual(rows);
  });

  it("writes formulas verbatim unless asked to neutralise them", () => {
    expect(csvField("=1+1")).toBe("=1+1");
    expect(csvField("@SUM(A1)")).toBe("@SUM(A1)");
  });

  it("neutralises every start a spreadsheet runs as a formula with a leading quote", () => {
    const options = { neutraliseFormulas: true };
    expect(csvField('=HYPERLINK("http://x")', options)).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField("+1", options)).toBe("'+1");
    expect(csvField("-2+3", options)).toBe("'-2+3");
    expect(csvField("@cmd", options)).toBe("'@cmd");
    expect(csvField("\tx", options)).toBe("'\tx");
    expect(csvField("\r=1", options)).toBe('"\'\r=1"');
    expect(csvField("=1,2", options)).toBe('"\'=1,2"');
    // Only the first character counts, and numbers are data.
    expect(csvField("a=b", options)).toBe("a=b");
    expect(csvField(" =1", options)).toBe(" =1");
    expect(csvField(-0.5, options)).toBe("-0.5");
    expect(csvField("", options)).toBe("");
    expect(writeCsv([["=x", "ok"]], options)).toBe("'=x,ok\r\n");
  });
});
