import { describe, expect, it } from "vitest";
import { datasetUploadParts } from "@/lib/client/datasets-api";
import { describeUploadFailure, describeUploadSuccess, tooManyRowsMessage } from "@/components/dataset/describe-upload";
import { formatRowCount, previewCaption } from "@/components/dataset/dataset-preview-caption";
import { DatasetParseError } from "@/lib/formats/parse-dataset";

describe("datasetUploadParts", () => {
  const input = {
    name: 'quotes "and" ünïcode.csv',
    headers: ["a", "b"],
    rows: Array.from({ length: 7 }, (_, index) => ({ a: String(index), b: `line\n"${index}"` })),
  };

  it("joins to exactly JSON.stringify of the body, whatever the slice size", () => {
    for (const size of [1, 2, 3, 7, 100]) {
      expect([...datasetUploadParts(input, size)].join("")).toBe(JSON.stringify(input));
    }
    expect([...datasetUploadParts(input, 3)]).toHaveLength(1 + 3 + 1);
  });

  it("writes an empty rows array for no rows", () => {
    expect([...datasetUploadParts({ name: "x", headers: [], rows: [] })].join("")).toBe('{"name":"x","headers":[],"rows":[]}');
  });
});

describe("upload messages", () => {
  it("says what was loaded", () => {
    expect(describeUploadSuccess("cities.csv", 1234, 3)).toBe("Loaded cities.csv: 1,234 rows, 3 columns");
    expect(describeUploadSuccess("one.json", 1, 1)).toBe("Loaded one.json: 1 row, 1 column");
    expect(describeUploadSuccess("plain.csv", 2, 2, ",")).toBe("Loaded plain.csv: 2 rows, 2 columns");
    expect(describeUploadSuccess("excel.csv", 2, 2, ";")).toBe("Loaded excel.csv: 2 rows, 2 columns, separated by semicolons");
    expect(describeUploadSuccess("d.tsv", 1, 3, "\t")).toBe("Loaded d.tsv: 1 row, 3 columns, separated by tabs");
  });

  it("keeps the parser's file, row and fix, and names the file otherwise", () => {
    const parseError = new DatasetParseError({
      file: "b.csv",
      row: 4,
      problem: "row has 3 fields but the header has 2.",
      hint: "Quote values that contain commas.",
    });
    expect(describeUploadFailure("b.csv", parseError, false)).toBe(
      "b.csv, row 4: row has 3 fields but the header has 2. Quote values that contain commas.",
    );
    expect(describeUploadFailure("b.csv", new Error("rows: Too big"), true)).toBe(
      "b.csv: the server did not store it (rows: Too big). Try again; if it keeps failing, check the server log.",
    );
    expect(describeUploadFailure("b.csv", new Error("b.csv: the file could not be read (x)."), false)).toBe(
      "b.csv: the file could not be read (x).",
    );
    expect(tooManyRowsMessage("big.csv", 123_456)).toBe(
      "big.csv: 123,456 rows is more than the 100,000 a dataset can hold. Split the file into smaller ones.",
    );
  });

  it("captions the preview by how much of the dataset it shows", () => {
    expect(previewCaption(50, 1234)).toBe("First 50 of 1,234 rows");
    expect(previewCaption(12, 12)).toBe("All 12 rows");
    expect(previewCaption(1, 1)).toBe("The only row");
    expect(formatRowCount(0)).toBe("0 rows");
  });
});
