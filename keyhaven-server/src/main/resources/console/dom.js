// Small DOM helpers shared by the console's pages. Everything the server returns goes on the page as text
// (textContent, attribute values): nothing is ever parsed as HTML.

/** An element: h('li', {className: 'x', dataset: {id}}, 'text', child, ...). Null/undefined children are skipped. */
export function h(tag, properties = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(properties)) {
    if (value === undefined || value === null) continue;
    if (name === 'dataset') Object.assign(node.dataset, value);
    else if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2), value);
    else if (name in node && !name.startsWith('aria')) node[name] = value;
    else node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child !== undefined && child !== null && child !== false) node.append(child);
  }
  return node;
}

/** createdAt/updatedAt as milliseconds: RFC 3339 text, or {seconds, nanos} with --activity-timestamps=object. */
export function millis(time) {
  if (time && typeof time === 'object') {
    return Number(time.seconds) * 1000 + Math.floor(Number(time.nanos || 0) / 1e6);
  }
  return Date.parse(time) || 0;
}

/** A timestamp as ISO 8601 text, for lists. */
export function when(time) {
  return new Date(millis(time)).toISOString();
}

/** A button that disables itself while its action runs, so a double click never submits twice. */
export function actionButton(label, action, properties = {}) {
  const button = h('button', { type: 'button', ...properties }, label);
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await action();
    } finally {
      button.disabled = false;
    }
  });
  return button;
}
