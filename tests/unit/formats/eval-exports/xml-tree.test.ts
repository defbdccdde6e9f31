import { describe, expect, it } from "vitest";
import { parseXml, textOf } from "./xml-tree";

// The exports' tests rest on this reader refusing what is not well-formed.
describe("parseXml (the tests' strict XML reader)", () => {
  it.each([
    ["<a><b></a>", /closes/],
    ["<a>x & y</a>", /stray &/],
    ["<a>1 < 2</a>", /bad tag name/],
    ['<a x="1" x="2"/>', /repeated attribute/],
    ['<a x="<"/>', /raw </],
    ["<a>\u0001</a>", /forbidden character/],
    ["<a>&nbsp;</a>", /unknown entity/],
    ["<a/><b/>", /second root/],
    ["<a><!-- x -- y --></a>", /-- inside a comment/],
    ["<a>", /never closed/],
    ["<a x=1/>", /bad attribute/],
  ])("refuses %j", (source, message) => {
    expect(() => parseXml(source)).toThrow(message);
  });

  it("reads entities, character references and normalised attributes", () => {
    const root = parseXml('<?xml version="1.0"?>\n<a v="1&#10;2\n3">&lt;b&gt; &amp; &#x41;&#66;</a>\n');
    expect(root.attributes.v).toBe("1\n2 3");
    expect(textOf(root)).toBe("<b> & AB");
  });
});
