// One pass over the rendered page; returns ONE compact JSON string.
// Columnar: parallel arrays indexed by element, in the pre-order of the
// FLAT tree (what is rendered): a shadow host's children are its shadow
// root's children, a <slot>'s children the nodes assigned to it. Styles and
// tag names are interned; attributes sparse. XPaths are rebuilt in Python;
// where the flat tree and the DOM differ, `xstep` gives the step explicitly
// (see visx/model.py for the path form).
// args.roots (optional): capture only these elements' flat subtrees, as a
// forest (each root's parent is -1), e.g. the new rows of a list.
// args.maxEls, args.budgetMs (optional): stop after this many elements or ms.
(args) => {
  const PROPS = args.props;
  const ATTRS = args.attrs;
  const NP = PROPS.length;
  const SCOPE_SHADOW = 1, SCOPE_CLOSED = 2;
  // DOM clobbering: on a <form> (and on document) a named control shadows
  // built-in properties (<input name="id"> makes form.id that input), so
  // every DOM read goes through the prototypes' own getters and methods.
  const get = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const parentNodeOf = get(Node.prototype, 'parentNode');
  const firstOf = get(Node.prototype, 'firstChild');
  const nextOf = get(Node.prototype, 'nextSibling');
  const typeOf = get(Node.prototype, 'nodeType');
  const valueOf = get(Node.prototype, 'nodeValue');
  const nameOf = get(Element.prototype, 'localName');
  const shadowOf = get(Element.prototype, 'shadowRoot');
  const rootOf = Node.prototype.getRootNode;
  const attrOf = Element.prototype.getAttribute;
  const rectOf = Element.prototype.getBoundingClientRect;
  const clientLeftOf = get(Element.prototype, 'clientLeft');
  const clientTopOf = get(Element.prototype, 'clientTop');
  const assignedOf = typeof HTMLSlotElement !== 'undefined' ? HTMLSlotElement.prototype.assignedNodes : null;
  // Closed shadow roots are invisible to page code; hooks.js records them as
  // the page attaches them (JavaScript on), so they can be walked too.
  const closedRoots = window[Symbol.for('visx.closedRoots')];
  const doc = get(Document.prototype, 'documentElement').call(document);
  if (!doc) return JSON.stringify({n: 0});
  // Finite animations and transitions jump to their end: a list that fades in is
  // captured as the user sees it a moment later, whatever the machine's speed.
  if (document.getAnimations) {
    for (const a of document.getAnimations()) {
      try {
        const t = a.effect && a.effect.getComputedTiming();
        if (a.playState !== 'finished' && t && Number.isFinite(t.endTime)) a.finish();
      } catch (err) { /* an animation that cannot finish keeps running */ }
    }
  }
  const body = get(Document.prototype, 'body').call(document);
  const baseURI = get(Node.prototype, 'baseURI').call(document);
  const sx = window.scrollX, sy = window.scrollY;
  const sw = get(Element.prototype, 'scrollWidth'), sh = get(Element.prototype, 'scrollHeight');
  const pageW = Math.max(sw.call(doc), body ? sw.call(body) : 0, window.innerWidth);
  const pageH = Math.max(sh.call(doc), body ? sh.call(body) : 0, window.innerHeight);
  const parent = [], tag = [], id = [], cls = [], text = [], tail = [], box = [], vis = [], sty = [];
  const scope = [], scp = [], xstep = [], frames = [], isBox = [], inBox = [];
  const tagIds = new Map(), tags = [];
  const styleIds = new Map(), styles = [];
  const attrs = {};
  for (const a of ATTRS) attrs[a] = [];
  const NOTEXT = new Set(['script', 'style', 'noscript', 'template']);
  const norm = (s) => s.replace(/\s+/g, ' ');
  // Where CSS keeps spaces too (pre, pre-wrap) the text is kept as it is (tabs and runs of
  // spaces align columns); where it keeps only breaks (pre-line), spaces are one space.
  const keepAll = (s) => s.replace(/\r\n?/g, '\n');
  const keepBreaks = (s) => keepAll(s).replace(/[^\S\n]+/g, ' ').replace(/ ?\n ?/g, '\n');
  const keepLines = new Map();
  const r1 = (v) => Math.round(v * 10) / 10;
  const els = [];
  const index = new Map();
  let closedWalked = 0;
  // The DOM step of a slotted element among its host's children (tag[k]).
  const lightSteps = new Map();
  const lightStep = (el) => {
    const host = parentNodeOf.call(el);
    let steps = lightSteps.get(host);
    if (!steps) {
      steps = new Map();
      const counts = new Map(), seen = new Map();
      for (let c = firstOf.call(host); c; c = nextOf.call(c)) {
        if (typeOf.call(c) === 1) { const t = nameOf.call(c); counts.set(t, (counts.get(t) || 0) + 1); }
      }
      for (let c = firstOf.call(host); c; c = nextOf.call(c)) {
        if (typeOf.call(c) !== 1) continue;
        const t = nameOf.call(c);
        const k = (seen.get(t) || 0) + 1;
        seen.set(t, k);
        steps.set(c, counts.get(t) > 1 ? `${t}[${k}]` : t);
      }
      lightSteps.set(host, steps);
    }
    return [index.has(host) ? index.get(host) : -1, steps.get(el) || nameOf.call(el)];
  };
  const scopeOf = (el) => {
    const r = rootOf.call(el);
    if (r === document || !(r instanceof ShadowRoot)) return 0;
    return r.mode === 'closed' ? SCOPE_SHADOW | SCOPE_CLOSED : SCOPE_SHADOW;
  };
  // State of the element being read, shared with visit() (no closure per element).
  let own = '', kids = [], keepText = true, curMode = 0, curScope = 0, curI = 0;
  const visit = (c) => {
    const ct = typeOf.call(c);
    if (ct === 3) {
      if (!keepText) return;
      const v = valueOf.call(c);
      if (!v) return;
      if (kids.length) kids[kids.length - 1].tail += v; else own += v;
    } else if (ct === 1) {
      const k = {el: c, p: curI, scope: curScope, tail: '', xp: -1, xs: ''};
      if (curMode === 2) {
        const [hp, step] = lightStep(c);
        k.scope = hp >= 0 ? scp[hp] : scopeOf(c);
        k.xp = hp; k.xs = step;
      }
      kids.push(k);
    }
  };
  const stack = [];
  const roots = args.roots ? Array.from(args.roots) : [doc];
  for (let k = roots.length - 1; k >= 0; k--) {
    stack.push({el: roots[k], p: -1, scope: args.roots ? scopeOf(roots[k]) : 0, tail: '', xp: -1, xs: ''});
  }
  // Bounds (thresholds.py): a huge or slow page is cut, in document order, with the reason
  // said in page.cut; what was read is a whole tree (every parent precedes its children).
  const MAX_ELS = args.maxEls || Infinity;
  const END_AT = args.budgetMs ? performance.now() + args.budgetMs : Infinity;
  let cut = args.cut || '';
  while (stack.length) {
    if (els.length >= MAX_ELS) {
      cut = (cut ? cut + '; ' : '') + `the page has more than ${MAX_ELS} elements; the capture stopped there`;
      break;
    }
    if (performance.now() > END_AT) {  // every element: a patched accessor may take ms
      cut = (cut ? cut + '; ' : '') + `the capture stopped after ${Math.round(args.budgetMs / 100) / 10} s at ${els.length} elements (the page reads slowly)`;
      break;
    }
    const e = stack.pop();
    const el = e.el;
    const i = els.length;
    els.push(el);
    index.set(el, i);
    const p = e.p;
    parent.push(p);
    const t = (nameOf.call(el) || '').toLowerCase();
    let ti = tagIds.get(t);
    if (ti === undefined) { ti = tags.length; tags.push(t); tagIds.set(t, ti); }
    tag.push(ti);
    id.push(attrOf.call(el, 'id') || '');
    cls.push((attrOf.call(el, 'class') || '').trim().replace(/\s+/g, ' '));
    scp.push(e.scope);
    if (e.scope) scope.push(i, e.scope);
    if (e.xs) xstep.push(i, e.xp, e.xs);
    for (const a of ATTRS) {
      let v = attrOf.call(el, a);
      if (v === null) continue;
      if ((a === 'href' || a === 'src') && v) {
        try { v = new URL(v, baseURI).href; } catch (err) { /* keep raw */ }
      }
      attrs[a].push(i, v.length > 2000 ? v.slice(0, 2000) : v);
    }
    // Flat children: a shadow root's, a slot's assigned nodes, or the DOM's.
    let sr = shadowOf.call(el), mode = 0, kidScope = e.scope;
    if (!sr && closedRoots) { sr = closedRoots.get(el) || null; if (sr) { mode = 3; closedWalked++; } }
    if (sr && !mode) mode = 1;
    let assigned = null;
    if (!sr && t === 'slot' && assignedOf && (e.scope & SCOPE_SHADOW)) {
      assigned = assignedOf.call(el);
      if (assigned.length) mode = 2; else assigned = null;
    }
    if (mode === 1) kidScope = SCOPE_SHADOW;
    else if (mode === 3) kidScope = SCOPE_SHADOW | SCOPE_CLOSED;
    // text = text nodes before the first element child; tail = after an element.
    own = ''; kids = []; keepText = !NOTEXT.has(t); curMode = mode; curScope = kidScope; curI = i;
    if (mode === 2) { for (const c of assigned) visit(c); }
    else { for (let c = firstOf.call(sr || el); c; c = nextOf.call(c)) visit(c); }
    if (mode === 1 || mode === 3) {
      // Steps inside a shadow root: '#shadow-root/tag[k]', counted among the root's children.
      const counts = new Map(), seen = new Map();
      for (const k of kids) { const kt = nameOf.call(k.el); counts.set(kt, (counts.get(kt) || 0) + 1); }
      for (const k of kids) {
        const kt = nameOf.call(k.el);
        const n = (seen.get(kt) || 0) + 1;
        seen.set(kt, n);
        k.xp = i; k.xs = '#shadow-root/' + (counts.get(kt) > 1 ? `${kt}[${n}]` : kt);
      }
    }
    text.push(own);
    tail.push(e.tail);
    // Where CSS keeps line breaks (<pre>, white-space: pre-line ...) a break ends
    // a line the reader sees as one: kept as '\n' (read only when a text has one).
    if (own.indexOf('\n') >= 0 || kids.some((k) => k.tail.indexOf('\n') >= 0)) {
      const c = getComputedStyle(el);
      const ws = c.getPropertyValue('white-space-collapse') || c.getPropertyValue('white-space');
      if (/^(preserve|break-spaces|pre|pre-wrap)$/.test(ws)) keepLines.set(i, keepAll);
      else if (/^(preserve-breaks|pre-line)$/.test(ws)) keepLines.set(i, keepBreaks);
    }
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
    const r = rectOf.call(el);
    box.push(r1(r.left + sx), r1(r.top + sy), r1(r.width), r1(r.height));
    // The hot loop: a plain loop builds the intern key as it reads (no
    // closure, no join), measurably faster than PROPS.map(...).join().
    const cs = getComputedStyle(el);
    const vals = new Array(NP);
    let key = '';
    for (let k = 0; k < NP; k++) { const v = cs.getPropertyValue(PROPS[k]); vals[k] = v; key += v + '\u0001'; }
    let si = styleIds.get(key);
    if (si === undefined) { si = styles.length; styles.push(vals); styleIds.set(key, si); }
    sty.push(si);
    if (t === 'iframe' || t === 'frame') {
      // Where the frame's document starts on the page: its content box.
      frames.push(i, r1(r.left + sx + clientLeftOf.call(el) + (parseFloat(cs.paddingLeft) || 0)),
                  r1(r.top + sy + clientTopOf.call(el) + (parseFloat(cs.paddingTop) || 0)));
    }
    let f = 0;
    const pf = p >= 0 ? vis[p] : 0;
    if (vals[0] === 'none' || (pf & 1)) f |= 1;
    if (vals[1] === 'hidden' || vals[1] === 'collapse') f |= 2;
    if (parseFloat(vals[11]) === 0 || (pf & 4)) f |= 4;
    // display: contents (slots among others) has no box of its own by design.
    if ((r.width <= 0 || r.height <= 0) && vals[0] !== 'contents') f |= 8;
    const ax = r.left + sx, ay = r.top + sy;
    // Below the page but inside a box that scrolls vertically: the reader scrolls the box to it.
    const ov = vals[13].split(' ');
    isBox.push(/^(auto|scroll|overlay)$/.test(ov[ov.length - 1]) ? 1 : 0);
    inBox.push(p >= 0 ? (inBox[p] || isBox[p]) : 0);
    if (r.width > 0 && r.height > 0 && (ax + r.width <= 0 || ay + r.height <= 0 || ax >= pageW
        || (ay >= pageH && !inBox[i]))) f |= 16;
    vis.push(f);
  }
  const n = els.length;
  // An element of zero size still shows its content when a descendant has
  // area (collapsed float containers, display: contents): not zero-size then.
  const hasArea = new Uint8Array(n);
  for (let i = n - 1; i >= 0; i--) {
    if (box[4 * i + 2] > 0 && box[4 * i + 3] > 0 && !(vis[i] & 1)) hasArea[i] = 1;
    if (hasArea[i] && parent[i] >= 0) hasArea[parent[i]] = 1;
  }
  for (let i = 0; i < n; i++) {
    if ((vis[i] & 8) && hasArea[i]) vis[i] &= ~8;
    text[i] = text[i] ? (keepLines.get(i) || norm)(text[i]) : '';
    tail[i] = tail[i] ? (keepLines.get(parent[i]) || norm)(tail[i]) : '';
    if (text[i] === ' ') text[i] = '';
    if (tail[i] === ' ') tail[i] = '';
  }
  if (!args.roots) {
    // Kept for the next calls on this page: which element a frame or a list is.
    Object.defineProperty(window, Symbol.for('visx.els'), {value: {els, index}, configurable: true});
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
      n, parent, tag, tags, id, cls, text, tail, box, vis, sty, styles, attrs, scope, xstep, frames,
      page: {
        width: pageW, height: pageH, url: String(location.href),
        title: String(get(Document.prototype, 'title').call(document) || ''),
        vw: window.innerWidth, vh: window.innerHeight, sx, sy, closed: closedWalked, cut,
      },
    });
  } finally {
    for (const [proto, desc] of lifted) Object.defineProperty(proto, 'toJSON', desc);
  }
}
