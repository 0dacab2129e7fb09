// One pass over the rendered DOM; returns ONE compact JSON string.
// Columnar: parallel arrays indexed by element (document order); styles and
// tag names interned; attributes sparse. XPaths are rebuilt in Python.
(args) => {
  const PROPS = args.props;
  const ATTRS = args.attrs;
  const NP = PROPS.length;
  // DOM clobbering: on a <form> (and on document) a named control shadows
  // built-in properties (<input name="id"> makes form.id that input), so
  // every DOM read goes through the prototypes' own getters and methods.
  const get = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const parentOf = get(Node.prototype, 'parentElement');
  const firstOf = get(Node.prototype, 'firstChild');
  const nextOf = get(Node.prototype, 'nextSibling');
  const typeOf = get(Node.prototype, 'nodeType');
  const valueOf = get(Node.prototype, 'nodeValue');
  const nameOf = get(Element.prototype, 'localName');
  const attrOf = Element.prototype.getAttribute;
  const rectOf = Element.prototype.getBoundingClientRect;
  const root = get(Document.prototype, 'documentElement').call(document);
  if (!root) return JSON.stringify({n: 0});
  const body = get(Document.prototype, 'body').call(document);
  const baseURI = get(Node.prototype, 'baseURI').call(document);
  const els = [root, ...Element.prototype.querySelectorAll.call(root, '*')];
  const n = els.length;
  const index = new Map();
  for (let i = 0; i < n; i++) index.set(els[i], i);
  const sx = window.scrollX, sy = window.scrollY;
  const sw = get(Element.prototype, 'scrollWidth'), sh = get(Element.prototype, 'scrollHeight');
  const pageW = Math.max(sw.call(root), body ? sw.call(body) : 0, window.innerWidth);
  const pageH = Math.max(sh.call(root), body ? sh.call(body) : 0, window.innerHeight);
  const parent = new Array(n), tag = new Array(n), id = new Array(n), cls = new Array(n);
  const text = new Array(n).fill(''), tail = new Array(n).fill('');
  const box = new Array(4 * n), vis = new Array(n), sty = new Array(n);
  const tagIds = new Map(), tags = [];
  const styleIds = new Map(), styles = [];
  const attrs = {};
  for (const a of ATTRS) attrs[a] = [];
  const NOTEXT = new Set(['script', 'style', 'noscript', 'template']);
  const norm = (s) => s.replace(/\s+/g, ' ');
  const r1 = (v) => Math.round(v * 10) / 10;
  for (let i = 0; i < n; i++) {
    const el = els[i];
    const p = parentOf.call(el);
    parent[i] = p ? index.get(p) : -1;
    const t = (nameOf.call(el) || '').toLowerCase();
    let ti = tagIds.get(t);
    if (ti === undefined) { ti = tags.length; tags.push(t); tagIds.set(t, ti); }
    tag[i] = ti;
    id[i] = attrOf.call(el, 'id') || '';
    cls[i] = (attrOf.call(el, 'class') || '').trim().replace(/\s+/g, ' ');
    for (const a of ATTRS) {
      let v = attrOf.call(el, a);
      if (v === null) continue;
      if ((a === 'href' || a === 'src') && v) {
        try { v = new URL(v, baseURI).href; } catch (e) { /* keep raw */ }
      }
      attrs[a].push(i, v.length > 2000 ? v.slice(0, 2000) : v);
    }
    // text = text nodes before the first element child; tail = after an element.
    if (!NOTEXT.has(t)) {
      let target = -1;
      for (let c = firstOf.call(el); c; c = nextOf.call(c)) {
        const ct = typeOf.call(c);
        if (ct === 3) {
          const v = valueOf.call(c);
          if (!v) continue;
          if (target < 0) text[i] += v; else tail[target] += v;
        } else if (ct === 1) {
          target = index.get(c);
          if (target === undefined) target = -1;
        }
      }
    }
    const r = rectOf.call(el);
    box[4 * i] = r1(r.left + sx); box[4 * i + 1] = r1(r.top + sy);
    box[4 * i + 2] = r1(r.width); box[4 * i + 3] = r1(r.height);
    // The hot loop: a plain loop builds the intern key as it reads (no
    // closure, no join), measurably faster than PROPS.map(...).join().
    const cs = getComputedStyle(el);
    const vals = new Array(NP);
    let key = '';
    for (let k = 0; k < NP; k++) { const v = cs.getPropertyValue(PROPS[k]); vals[k] = v; key += v + '\u0001'; }
    let si = styleIds.get(key);
    if (si === undefined) { si = styles.length; styles.push(vals); styleIds.set(key, si); }
    sty[i] = si;
    let f = 0;
    const pf = parent[i] >= 0 ? vis[parent[i]] : 0;
    if (vals[0] === 'none' || (pf & 1)) f |= 1;
    if (vals[1] === 'hidden' || vals[1] === 'collapse') f |= 2;
    if (parseFloat(vals[11]) === 0 || (pf & 4)) f |= 4;
    if (r.width <= 0 || r.height <= 0) f |= 8;
    const ax = r.left + sx, ay = r.top + sy;
    if (r.width > 0 && r.height > 0 && (ax + r.width <= 0 || ay + r.height <= 0 || ax >= pageW || ay >= pageH)) f |= 16;
    vis[i] = f;
  }
  // An element of zero size still shows its content when a descendant has
  // area (collapsed float containers, display: contents): not zero-size then.
  const hasArea = new Uint8Array(n);
  for (let i = n - 1; i >= 0; i--) {
    if (box[4 * i + 2] > 0 && box[4 * i + 3] > 0 && !(vis[i] & 1)) hasArea[i] = 1;
    if (hasArea[i] && parent[i] >= 0) hasArea[parent[i]] = 1;
  }
  for (let i = 0; i < n; i++) {
    if ((vis[i] & 8) && hasArea[i]) vis[i] &= ~8;
    text[i] = text[i] ? norm(text[i]) : '';
    tail[i] = tail[i] ? norm(tail[i]) : '';
    if (text[i] === ' ') text[i] = '';
    if (tail[i] === ' ') tail[i] = '';
  }
  // Old libraries (Prototype.js) add toJSON to built-in prototypes, which
  // makes JSON.stringify double-encode arrays and strings: lift them for the call.
  const lifted = [];
  for (const proto of [Array.prototype, String.prototype, Object.prototype]) {
    if (Object.prototype.hasOwnProperty.call(proto, 'toJSON')) {
      lifted.push([proto, Object.getOwnPropertyDescriptor(proto, 'toJSON')]);
      delete proto.toJSON;
    }
  }
  try {
    return JSON.stringify({
      n, parent, tag, tags, id, cls, text, tail, box, vis, sty, styles, attrs,
      page: {
        width: pageW, height: pageH, url: String(location.href),
        title: String(get(Document.prototype, 'title').call(document) || ''),
        vw: window.innerWidth, vh: window.innerHeight,
      },
    });
  } finally {
    for (const [proto, desc] of lifted) Object.defineProperty(proto, 'toJSON', desc);
  }
}
