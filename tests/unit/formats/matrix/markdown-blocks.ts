import { Parser, type Node } from "commonmark";
import { parse as parseYaml } from "yaml";

/** A comparison's front matter parsed with a YAML parser, and its body's top-level blocks with a CommonMark parser. */
export function parseComparison(markdown: string): { frontMatter: Record<string, unknown>; blocks: Node[] } {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(markdown);
  if (!match) throw new Error("no front matter");
  const document = new Parser().parse(markdown.slice(match[0].length));
  const blocks: Node[] = [];
  for (let node = document.firstChild; node; node = node.next) blocks.push(node);
  return { frontMatter: parseYaml(match[1]), blocks };
}

/** A block's text as a reader sees it (emphasis marks gone), its soft line breaks as newlines. */
export function textOf(node: Node): string {
  let text = "";
  const walker = node.walker();
  for (let event = walker.next(); event; event = walker.next()) {
    if (event.entering && (event.node.type === "text" || event.node.type === "code")) text += event.node.literal ?? "";
    if (event.entering && event.node.type === "softbreak") text += "\n";
  }
  return text;
}
