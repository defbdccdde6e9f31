import type { CSSProperties, ReactNode } from "react";
import { htmlText } from "@/lib/formats/eval-exports/html-text";

// Why not react-dom/server: the HTML export is built in a route handler, and Next bundles route
// handlers with React's server-component build, where `react-dom/server` refuses to load ("You're
// importing a component that imports react-dom/server", a build error of `next build`). The charts
// are plain function components without hooks or state, so walking their element tree is all a
// static render does; tests/unit/formats/eval-exports/eval-charts.test.ts checks that this writes
// what react-dom/server's renderToStaticMarkup writes for every chart.

const ELEMENT_TYPES = new Set([Symbol.for("react.transitional.element"), Symbol.for("react.element")]);
const FRAGMENT = Symbol.for("react.fragment");
/** Props that are React's, not attributes. */
const NOT_ATTRIBUTES = new Set(["children", "key", "ref", "innerRef", "suppressHydrationWarning", "suppressContentEditableWarning"]);
/** Attribute names React writes differently from the prop (the rest of SVG's camelCase props become kebab-case). */
const ALIASES: Record<string, string> = { className: "class", htmlFor: "for" };
/** SVG attributes whose names are camelCase in the markup too. */
const CAMEL_CASE_ATTRIBUTES = new Set([
  "viewBox",
  "preserveAspectRatio",
  "gradientUnits",
  "gradientTransform",
  "patternUnits",
  "textLength",
]);
/** CSS properties whose numbers take no unit, as React writes them. */
const UNITLESS = new Set([
  "opacity",
  "zIndex",
  "flex",
  "flexGrow",
  "flexShrink",
  "fontWeight",
  "lineHeight",
  "order",
  "zoom",
  "fillOpacity",
  "strokeOpacity",
]);
const VOID_ELEMENTS = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

type ElementLike = { $$typeof: symbol; type: unknown; props: Record<string, unknown> };

/**
 * The static markup of a tree of host elements and function components without hooks: every
 * text and attribute escaped (htmlText, which also replaces characters XML forbids), no event
 * handler, no raw HTML. A class component, a hook or dangerouslySetInnerHTML is an error, loudly.
 */
export function staticMarkup(node: ReactNode): string {
  if (node === null || node === undefined || typeof node === "boolean") return "";
  if (typeof node === "string") return htmlText(node);
  if (typeof node === "number" || typeof node === "bigint") return String(node);
  if (Array.isArray(node)) return node.map((child: ReactNode) => staticMarkup(child)).join("");
  if (!isElement(node)) throw new Error(`staticMarkup cannot render ${Object.prototype.toString.call(node)}`);
  const { type, props } = node;
  if (type === FRAGMENT) return staticMarkup(props.children as ReactNode);
  if (typeof type === "function") {
    if ((type as { prototype?: { isReactComponent?: unknown } }).prototype?.isReactComponent) {
      throw new Error("staticMarkup renders function components only");
    }
    return staticMarkup((type as (props: Record<string, unknown>) => ReactNode)(props));
  }
  if (typeof type !== "string") throw new Error("staticMarkup renders host elements, fragments and function components only");
  if ("dangerouslySetInnerHTML" in props) throw new Error("staticMarkup does not write raw HTML");
  const attributes = Object.entries(props)
    .map(([name, value]) => attribute(name, value))
    .filter((text) => text !== "")
    .join("");
  if (VOID_ELEMENTS.has(type)) return `<${type}${attributes}/>`;
  return `<${type}${attributes}>${staticMarkup(props.children as ReactNode)}</${type}>`;
}

function isElement(node: unknown): node is ElementLike {
  return typeof node === "object" && node !== null && ELEMENT_TYPES.has((node as { $$typeof?: symbol }).$$typeof as symbol);
}

function attribute(name: string, value: unknown): string {
  if (NOT_ATTRIBUTES.has(name) || value === null || value === undefined || typeof value === "function" || typeof value === "symbol") {
    return "";
  }
  if (name === "style") {
    const css = styleText(value as CSSProperties);
    return css === "" ? "" : ` style="${htmlText(css)}"`;
  }
  const data = name.startsWith("data-") || name.startsWith("aria-");
  if (typeof value === "boolean" && !data) return value ? ` ${attributeName(name)}=""` : "";
  return ` ${attributeName(name)}="${htmlText(String(value))}"`;
}

function attributeName(name: string): string {
  if (ALIASES[name]) return ALIASES[name];
  if (name.startsWith("data-") || name.startsWith("aria-") || CAMEL_CASE_ATTRIBUTES.has(name)) return name;
  if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(name)) throw new Error(`staticMarkup: ${JSON.stringify(name)} is not an attribute name`);
  return kebabCase(name);
}

function styleText(style: CSSProperties): string {
  return Object.entries(style)
    .filter(([, value]) => value !== null && value !== undefined && typeof value !== "boolean" && value !== "")
    .map(([property, value]) => {
      const text = typeof value === "number" && value !== 0 && !UNITLESS.has(property) ? `${value}px` : String(value);
      return `${kebabCase(property)}:${text.trim()}`;
    })
    .join(";");
}

function kebabCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}
