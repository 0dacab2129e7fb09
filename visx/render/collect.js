// One pass over the rendered DOM; returns ONE compact JSON string.
// Columnar: parallel arrays indexed by element (document order); styles and
// tag names interned; attributes sparse. XPaths are rebuilt in Python.
(args) => {
  const PROPS = args.props;
  const ATTRS = args.attrs;
  const root = document.documentElement;
  if (!root) return JSON.stringify({n: 0});
  const els = [root, ...root.querySelectorAll('*')];
  const n = els.length;
  const index = new Map();
  for (let i = 0; i < n; i++) index.set(els[i], i);
  const sx = window.scrollX, sy = window.scrollY;
  const pageW = Math.max(root.scrollWidth, document.body ? document.body.scrollWidth : 0, window.innerWidth);
  const pageH = Math.max(root.scrollHeight, document.body ? document.body.scrollHeight : 0, window.innerHeight);
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
    const p = el.parentElement;
    parent[i] = p ? index.get(p) : -1;
    const t = (el.localName || el.tagName || '').toLowerCase();
    let ti = tagIds.get(t);
    if (ti === undefined) { ti = tags.length; tags.push(t); tagIds.set(t, ti); }
    tag[i] = ti;
    id[i] = el.id || '';
    cls[i] = (el.getAttribute('class') || '').trim().replace(/\s+/g, ' ');
    for (const a of ATTRS) {
      let v = el.getAttribute(a);
      if (v === null) continue;
      if ((a === 'href' || a === 'src') && v) {
        try { v = new URL(v, document.baseURI).href; } catch (e) { /* keep raw */ }
      }
      attrs[a].push(i, v.length > 2000 ? v.slice(0, 2000) : v);
    }
    // text = text nodes before the first element child; tail = after an element.
    if (!NOTEXT.has(t)) {
      let target = -1;
      for (let c = el.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 3) {
          const v = c.nodeValue;
          if (!v) continue;
          if (target < 0) text[i] += v; else tail[target] += v;
        } else if (c.nodeType === 1) {
          target = index.get(c);
          if (target === undefined) target = -1;
        }
      }
    }
    const r = el.getBoundingClientRect();
    box[4 * i] = r1(r.left + sx); box[4 * i + 1] = r1(r.top + sy);
    box[4 * i + 2] = r1(r.width); box[4 * i + 3] = r1(r.height);
    const cs = getComputedStyle(el);
    const vals = PROPS.map((q) => cs.getPropertyValue(q));
    const key = vals.join('\u0001');
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
  return JSON.stringify({
    n, parent, tag, tags, id, cls, text, tail, box, vis, sty, styles, attrs,
    page: {
      width: pageW, height: pageH, url: location.href, title: document.title || '',
      vw: window.innerWidth, vh: window.innerHeight,
    },
  });
}
