// A small, strict XML reader for the exports' tests (nothing in node_modules parses XML, and the
// point is strictness): it throws on anything that is not well-formed XML 1.0 as the exports use
// it: one root element, every element closed in order, attributes quoted and unique, no raw "<"
// or stray "&" in text or attribute values, only the five named entities and character
// references, comments without "--", and no character XML forbids. A DOCTYPE is allowed (the
// HTML report starts with <!DOCTYPE html>).

/** An element and what is in it. */
export type XmlElement = {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
};
export type XmlNode = XmlElement | { text: string } | { comment: string };

const NAME = /^[A-Za-z_][\w.:-]*/;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

function decode(raw: string, where: number): string {
  if (raw.includes("<")) throw new Error(`raw < at ${where}`);
  if (FORBIDDEN.test(raw)) throw new Error(`forbidden character at ${where}`);
  return raw.replace(/&([^;]*);?/g, (match, body: string) => {
    if (!match.endsWith(";")) throw new Error(`stray & at ${where}: ${match}`);
    if (body in ENTITIES) return ENTITIES[body];
    const numeric = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(body);
    if (!numeric) throw new Error(`unknown entity &${body}; at ${where}`);
    return String.fromCodePoint(numeric[1] ? parseInt(numeric[1], 16) : Number(numeric[2]));
  });
}

/** Parses a document; throws with the position of the first fault. */
export function parseXml(source: string): XmlElement {
  let index = 0;
  const stack: XmlElement[] = [{ name: "#document", attributes: {}, children: [] }];
  let sawRoot = false;
  const top = () => stack[stack.length - 1];
  if (source.startsWith("<?xml")) {
    const end = source.indexOf("?>");
    if (end === -1) throw new Error("unclosed XML declaration");
    index = end + 2;
  }
  while (index < source.length) {
    const next = source.indexOf("<", index);
    const text = source.slice(index, next === -1 ? source.length : next);
    if (text.length > 0) {
      if (stack.length === 1) {
        if (text.trim() !== "") throw new Error(`text outside the root at ${index}`);
      } else top().children.push({ text: decode(text, index) });
    }
    if (next === -1) break;
    index = next;
    if (source.startsWith("<!--", index)) {
      const end = source.indexOf("-->", index + 4);
      if (end === -1) throw new Error(`unclosed comment at ${index}`);
      const comment = source.slice(index + 4, end);
      if (comment.includes("--")) throw new Error(`-- inside a comment at ${index}`);
      top().children.push({ comment });
      index = end + 3;
    } else if (source.startsWith("<!DOCTYPE", index)) {
      if (sawRoot || stack.length > 1) throw new Error(`DOCTYPE after the root at ${index}`);
      index = source.indexOf(">", index) + 1;
    } else if (source.startsWith("</", index)) {
      const end = source.indexOf(">", index);
      const name = source.slice(index + 2, end).trim();
      const open = stack.pop();
      if (!open || stack.length === 0 || open.name !== name) throw new Error(`</${name}> closes <${open?.name}> at ${index}`);
      index = end + 1;
    } else {
      index += 1;
      const name = NAME.exec(source.slice(index))?.[0];
      if (!name) throw new Error(`bad tag name at ${index}`);
      index += name.length;
      const element: XmlElement = { name, attributes: {}, children: [] };
      for (;;) {
        const spaces = /^\s*/.exec(source.slice(index))![0].length;
        index += spaces;
        if (source.startsWith("/>", index) || source.startsWith(">", index)) break;
        if (spaces === 0) throw new Error(`no space before an attribute at ${index}`);
        const attribute = /^([A-Za-z_][\w.:-]*)\s*=\s*(["'])/.exec(source.slice(index));
        if (!attribute) throw new Error(`bad attribute at ${index}`);
        index += attribute[0].length;
        const close = source.indexOf(attribute[2], index);
        if (close === -1) throw new Error(`unclosed attribute at ${index}`);
        if (attribute[1] in element.attributes) throw new Error(`repeated attribute ${attribute[1]} at ${index}`);
        // Attribute-value normalisation (XML 1.0, 3.3.3): a literal tab or line break reads as a
        // space; only character references keep them.
        element.attributes[attribute[1]] = decode(source.slice(index, close).replace(/\r\n|[\t\n\r]/g, " "), index);
        index = close + 1;
      }
      if (stack.length === 1) {
        if (sawRoot) throw new Error(`a second root element at ${index}`);
        sawRoot = true;
      }
      top().children.push(element);
      if (source.startsWith("/>", index)) index += 2;
      else {
        index += 1;
        stack.push(element);
      }
    }
  }
  if (stack.length !== 1) throw new Error(`<${top().name}> is never closed`);
  const root = stack[0].children.find((child): child is XmlElement => "name" in child);
  if (!root) throw new Error("no root element");
  return root;
}

/** Every element under (and including) this one with the name, in document order. */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  const found = element.name === name ? [element] : [];
  for (const child of element.children) if ("name" in child) found.push(...findAll(child, name));
  return found;
}

/** The text of an element and everything in it. */
export function textOf(element: XmlElement): string {
  return element.children.map((child) => ("text" in child ? child.text : "name" in child ? textOf(child) : "")).join("");
}

/** Comments anywhere under the element. */
export function commentsOf(element: XmlElement): string[] {
  return element.children.flatMap((child) => ("comment" in child ? [child.comment] : "name" in child ? commentsOf(child) : []));
}
