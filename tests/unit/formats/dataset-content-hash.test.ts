import { describe, expect, it } from "vitest";
import { datasetContentHash } from "@/lib/formats/dataset-content-hash";

describe("datasetContentHash", () => {
  const rows = [
    { city: "Paris", country: "France" },
    { city: "Lyon", country: "France" },
  ];

  it("is the same for the same headers and rows, whatever the key order of a row", () => {
    const again = [
      { country: "France", city: "Paris" },
      { country: "France", city: "Lyon" },
    ];
    expect(datasetContentHash({ headers: ["city", "country"], rows: again })).toBe(
      datasetContentHash({ headers: ["city", "country"], rows }),
    );
  });

  it("changes with a value, the order of rows or columns, and a key beyond the headers", () => {
    const base = datasetContentHash({ headers: ["city", "country"], rows });
    const others = [
      datasetContentHash({ headers: ["city", "country"], rows: [rows[0], { city: "Lyon", country: "Spain" }] }),
      datasetContentHash({ headers: ["city", "country"], rows: [rows[1], rows[0]] }),
      datasetContentHash({ headers: ["country", "city"], rows }),
      datasetContentHash({ headers: ["city", "country"], rows: [rows[0], { ...rows[1], note: "x" }] }),
      datasetContentHash({ headers: ["city", "country"], rows: rows.slice(0, 1) }),
    ];
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
  });

  it("does not let values that contain the separators run into the next one", () => {
    const joined = datasetContentHash({ headers: ["a", "b"], rows: [{ a: 'x","y', b: "" }] });
    const split = datasetContentHash({ headers: ["a", "b"], rows: [{ a: "x", b: "y" }] });
    expect(joined).not.toBe(split);
    expect(datasetContentHash({ headers: ["a"], rows: [{ a: "1\n2" }] })).not.toBe(
      datasetContentHash({ headers: ["a"], rows: [{ a: "1" }, { a: "2" }] }),
    );
  });
});
