// Builds the page from data without ever parsing markup: text goes in as text nodes and
// attributes through setAttribute, so an article id (which anyone who can post an event
// chooses) is always shown as the characters it is, never run or rendered as HTML.

const SVG = "http://www.w3.org/2000/svg";

/** An HTML element: `h("a", { href, class: "x", onclick }, "text", child, [more])`. */
export function h(tag, props, ...children) {
  return build(document.createElement(tag), props, children);
}

/** An SVG element, built the same way. */
export function s(tag, props, ...children) {
  return build(document.createElementNS(SVG, tag), props, children);
}

function build(element, props, children) {
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

/** Appends children: nodes as they are, anything else as text. */
export function append(parent, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Replaces the children of `parent` with `children`. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/** An article id as text, isolated so that right-to-left characters in it cannot reorder
 *  the text around it. */
export function articleText(id) {
  return h("bdi", { class: "article-id" }, id);
}
