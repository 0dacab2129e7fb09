// The in-page half of the harvest: installed once per document as
// window[Symbol.for('visx.harvest')]. It watches one list (the anchor: the
// element whose children are the main list's records), scrolls, finds and
// clicks "Load more" and next controls, and hands over the rows it has not
// handed over before. Rows are keyed (see key()) so a row seen at two scroll
// positions is handed over once.
(cfg) => {
  const KEY = Symbol.for('visx.harvest');
  if (window[KEY]) return true;
  const IDX_ATTRS = ['row-index', 'aria-rowindex', 'aria-posinset', 'data-index', 'data-row-index',
                     'data-id', 'data-key', 'data-item-id', 'row-id'];
  // A "Load more" label: one of the phrases, perhaps followed by what it loads ("Show more products").
  const MORE = new RegExp('^\\s*(' + cfg.more.join('|') + ')(\\s+\\S+){0,2}\\s*$', 'i');
  // A next label: one of the words alone, or a next word beside a page word in a short
  // label ("Go to next page", "Nächste Seite anzeigen").
  const NEXT = new RegExp('^\\s*(' + cfg.next.join('|') + ')\\s*$', 'i');
  const NEXT_WORD = new RegExp('(^|\\s)(' + cfg.nextWords.join('|') + ')(\\s|$)', 'i');
  const PAGE_WORD = new RegExp('(^|\\s)(' + cfg.pageWords.join('|') + ')(\\s|$)', 'i');
  const nextLabel = (v) => NEXT.test(v) || (v.split(/\s+/).length <= 5 && NEXT_WORD.test(v) && PAGE_WORD.test(v));
  const NEXT_CLASS = /(^|[\s_-])next($|[\s_-])/i;
  const CONTROLS = 'button, a, [role=button], [role=link], input[type=button], input[type=submit], summary';
  const S = {anchor: null, path: '', seen: new Map(), stepOf: new WeakMap(), prev: [], page: 1};
  // Every element matching sel, in the document and in every open shadow root.
  const deepAll = (sel) => {
    const out = [];
    const walk = (root) => {
      out.push(...root.querySelectorAll(sel));
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
    };
    walk(document);
    return out;
  };
  // A control's label without counts and punctuation: "Load 20 more (240)" -> "load more".
  const bare = (v) => (v || '').replace(/[\d.,:;!?…()\[\]{}+\-–—|•·]+/g, ' ').replace(/\s+/g, ' ').trim();

  const els = () => (window[Symbol.for('visx.els')] || {els: []}).els;
  // Rows: children with text or media. A virtualiser's sizer or spacer (an empty
  // box as tall as the whole list) is not a row.
  const MEDIA = 'img, svg, video, canvas, picture, input, select, textarea';
  const isRow = (c) => /\S/.test(c.textContent || '') || !!(c.shadowRoot && /\S/.test(c.shadowRoot.textContent))
    || c.matches(MEDIA) || !!c.querySelector(MEDIA);
  // Children in the rendered tree: a shadow host's are its shadow root's, a slot's its assigned elements.
  const closedRoots = window[Symbol.for('visx.closedRoots')];
  const flatKids = (el) => {
    if (!el) return [];
    const root = el.shadowRoot || (closedRoots && closedRoots.get(el));
    if (root) return Array.from(root.children);
    if (el.localName === 'slot' && el.assignedElements().length) return el.assignedElements();
    return Array.from(el.children);
  };
  const kids = (el) => flatKids(el).filter(isRow);
  const extent = (rects) => rects.reduce((acc, r) => [Math.min(acc[0], r.top), Math.max(acc[1], r.bottom)],
                                         [Infinity, -Infinity]);
  const textOf = (el) => {
    let t = el.textContent || '';
    if (el.shadowRoot) t += ' ' + el.shadowRoot.textContent;
    return t.replace(/\s+/g, ' ').trim();
  };
  const key = (el) => {
    for (const a of IDX_ATTRS) {
      const v = el.getAttribute(a);
      if (v !== null && v !== '') return a + '=' + v;
    }
    const link = el.querySelector ? el.querySelector('a[href]') : null;
    return 't=' + textOf(el).slice(0, 300) + '|' + (link ? link.getAttribute('href') : '');
  };
  const shown = (el) => {
    if (!el || !el.isConnected) return false;
    if (el.checkVisibility && !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const rect = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left + scrollX, r.top + scrollY, r.width, r.height];
  };
  // A DOM path to find the anchor again when a framework replaces it.
  const pathOf = (el) => {
    const steps = [];
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      let k = 1;
      for (let s = e.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === e.localName) k++;
      steps.unshift(e.localName + '[' + k + ']');
    }
    return '/' + steps.join('/');
  };
  const anchor = () => {
    if (S.anchor && S.anchor.isConnected) return S.anchor;
    if (!S.path) return null;
    const found = document.evaluate(S.path, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
    if (found) S.anchor = found;
    return found;
  };
  const scrollable = (el) => {
    const cs = getComputedStyle(el);
    return /(auto|scroll|overlay)/.test(cs.overflowY) && el.scrollHeight > el.clientHeight + 2;
  };
  // The parent in the rendered tree: a slot for a slotted element, the host for a shadow root's child.
  const flatParent = (e) => {
    if (e.assignedSlot) return e.assignedSlot;
    if (e.parentElement) return e.parentElement;
    const root = e.getRootNode();
    return root instanceof ShadowRoot ? root.host : null;
  };
  const scroller = () => {
    for (let e = anchor(); e && e !== document.body && e !== document.documentElement; e = flatParent(e)) {
      if (scrollable(e)) return e;
    }
    return null;
  };
  // New rows: occurrences of a key beyond the most seen of it in one view.
  const fresh = () => {
    const a = anchor();
    const counts = new Map(), out = [];
    for (const c of kids(a)) {
      const k = key(c);
      const n = (counts.get(k) || 0) + 1;
      counts.set(k, n);
      if (n > (S.seen.get(k) || 0)) out.push([c, k, n]);
    }
    return out;
  };
  const H = {
    install(a) {
      const el = a.el || (a.index >= 0 ? els()[a.index] : null);
      S.anchor = el || null;
      S.path = el ? pathOf(el) : '';
      S.page = a.page;
      S.seen = new Map();
      S.prev = [];
      return !!el;
    },
    // The anchor and its scroller: how the list is laid out now.
    layout() {
      const a = anchor();
      if (!a) return null;
      const box = scroller();
      const rows = kids(a).filter(shown).map((c) => c.getBoundingClientRect());
      const [top, bottom] = rows.length ? extent(rows) : [0, 0];
      // How tall the list's content is: its own box, or all its scroll box scrolls through
      // (a virtualiser may move a short wrapper of rows inside a tall spacer).
      const content = Math.max(box === a ? a.scrollHeight : a.getBoundingClientRect().height,
                               box ? box.scrollHeight : 0);
      const sb = box ? box.getBoundingClientRect() : null;
      return {anchor: rect(a), rows: rows.length, span: bottom - top, content, box: !!box,
              boxRect: sb ? [sb.left + scrollX, sb.top + scrollY, sb.width, sb.height] : null,
              viewH: box ? box.clientHeight : innerHeight,
              atEnd: box ? box.scrollTop + box.clientHeight >= box.scrollHeight - 2
                         : scrollY + innerHeight >= document.documentElement.scrollHeight - 2};
    },
    status() {
      const a = anchor();
      const s = window[Symbol.for('visx.hooks')];
      const removed = S.prev.filter((c) => !c.isConnected || c.parentElement !== a).length;
      return {lost: !a, fresh: a ? fresh().length : 0, removed,
              quiet: s ? performance.now() - s.lastMutation : 1e9, timers: s ? s.timers.size : 0};
    },
    // Hand over the new rows (marking them seen) with where the anchor was.
    take(step) {
      const a = anchor();
      if (!a) return {rows: [], meta: {keys: [], anchor: null, removed: 0}};
      const removed = S.prev.filter((c) => !c.isConnected || c.parentElement !== a).length;
      const got = fresh();
      const counts = new Map();
      for (const c of kids(a)) { const k = key(c); counts.set(k, (counts.get(k) || 0) + 1); }
      for (const [k, n] of counts) if (n > (S.seen.get(k) || 0)) S.seen.set(k, n);
      for (const [c] of got) if (!S.stepOf.has(c)) S.stepOf.set(c, step);
      S.prev = kids(a);
      // Where the list's content starts: a list that scrolls itself moves its rows, not its box.
      const origin = rect(a);
      if (a === scroller()) { origin[0] -= a.scrollLeft; origin[1] -= a.scrollTop; }
      return {rows: got.map((g) => g[0]), meta: {keys: got.map((g) => g[1]), anchor: origin, removed}};
    },
    // The step that first showed each element of the last capture's anchor rows.
    steps() {
      const out = [];
      const list = els();
      for (let i = 0; i < list.length; i++) {
        const st = S.stepOf.get(list[i]);
        if (st) out.push(i, st);
      }
      return out;
    },
    scroll(a) {
      const box = scroller();
      const before = box ? box.scrollTop : scrollY;
      const view = box ? box.clientHeight : innerHeight;
      const end = box ? box.scrollHeight - view : document.documentElement.scrollHeight - innerHeight;
      let to = a.stepwise ? before + view * a.share : end;
      if (a.nudge) {
        // The list's end in view (a loader watching for it sits there, above a tall footer).
        const an = anchor();
        const r = an ? an.getBoundingClientRect() : null;
        const top = box ? box.getBoundingClientRect().top : 0;
        to = r ? before + (r.bottom - top) - view * 0.6 : Math.max(0, before - view / 2);
      }
      to = Math.max(0, Math.min(to, end));
      if (box) box.scrollTop = to; else window.scrollTo(scrollX, to);
      const after = box ? box.scrollTop : scrollY;
      return {moved: after - before, atEnd: after >= end - 2};
    },
    top() {
      const box = scroller();
      if (box) box.scrollTop = 0;
      window.scrollTo(0, 0);
    },
    // A "Load more" control after the list: visible, enabled, short text in one of the languages.
    findMore() {
      const a = anchor();
      if (!a) return null;
      const ar = a.getBoundingClientRect();
      const rowEls = kids(a).filter(shown);
      let best = null, bestD = Infinity;
      for (const el of deepAll(CONTROLS)) {
        if (!shown(el) || el.disabled || el.getAttribute('aria-disabled') === 'true') continue;
        const label = (el.getAttribute('aria-label') || el.value || el.textContent || '').replace(/\s+/g, ' ').trim();
        if (!label || label.length > 40 || !MORE.test(bare(label))) continue;
        const r = el.getBoundingClientRect();
        // After the records, across the list: the control may sit in the list as its last
        // child, so the row holding it is not one of the records it must follow.
        const others = rowEls.filter((c) => !c.contains(el)).map((c) => c.getBoundingClientRect());
        const last = others.length ? extent(others)[1] : ar.bottom;
        if (r.top < last - 4 || r.right < ar.left || r.left > ar.right) continue;
        const d = r.top - last;
        if (d < bestD) { best = el; bestD = d; }
      }
      if (!best) return null;
      S.more = best;
      return {text: (best.textContent || best.value || best.getAttribute('aria-label') || '').trim().slice(0, 60)};
    },
    clickMore() { if (S.more && S.more.isConnected) { S.more.click(); return true; } return false; },
    // A next control: rel=next, then a next word (text, aria-label, title), then the page number after the current.
    findNext() {
      const a = anchor();
      const ar = a ? a.getBoundingClientRect() : null;
      const here = location.href.split('#')[0];
      const off = (e) => e && (e.disabled || e.getAttribute('aria-disabled') === 'true'
        || /(^|\s)(disabled|is-disabled)(\s|$)/i.test(String(e.getAttribute('class') || '')));
      const ok = (el) => {
        if (off(el) || off(el.parentElement) || (el.parentElement && off(el.parentElement.parentElement))) return false;
        if (el.localName === 'a') {
          const href = el.getAttribute('href');
          if (href === null) return true;
          if (/^\s*javascript:/i.test(href)) return true;
          let u;
          try { u = new URL(href, document.baseURI); } catch (e) { return false; }
          if (u.hostname.replace(/^www\./, '') !== location.hostname.replace(/^www\./, '')) return false;
          // An in-page anchor (#reviews) leads nowhere; a hash route (#/page/2, #!/p2) does.
          const h = href.trim();
          if (u.href.split('#')[0] === here && h.startsWith('#') && h !== '#' && !/^#[/!]/.test(h)) return false;
        }
        return true;
      };
      const near = (el) => {
        if (!ar) return 0;
        const r = el.getBoundingClientRect();
        return r.top >= ar.top ? Math.abs(r.top - ar.bottom) : (ar.top - r.bottom) + 1e4;
      };
      const pick = (list, how) => {
        const good = list.filter((el) => (shown(el) || el.localName === 'link') && ok(el));
        if (!good.length) return null;
        good.sort((x, y) => near(x) - near(y));
        S.next = good[0];
        const href = good[0].href || good[0].getAttribute('href') || '';
        return {how, text: (good[0].textContent || good[0].getAttribute('aria-label') || '').trim().slice(0, 40),
                href: String(href), link: good[0].localName === 'link'};
      };
      let found = pick(deepAll('a[rel~=next], button[rel~=next], link[rel~=next]'), 'rel=next');
      if (found) return found;
      const worded = [];
      const controls = deepAll(CONTROLS);
      const classed = [];
      for (const el of controls) {
        // Its own label, its wrapper's title (<li title="Next Page"><button>), its icon's label.
        const icon = el.querySelector('[aria-label], [title], img[alt]');
        const parent = el.parentElement;
        const label = [el.getAttribute('aria-label'), el.getAttribute('title'), el.textContent, el.value,
                       parent && parent.getAttribute('title'), parent && parent.getAttribute('aria-label'),
                       icon && (icon.getAttribute('aria-label') || icon.getAttribute('title') || icon.getAttribute('alt'))]
          .map((v) => (v || '').replace(/\s+/g, ' ').trim()).filter((v) => v && v.length <= 30);
        if (label.some(nextLabel)) worded.push(el);
        else if (NEXT_CLASS.test(String(el.getAttribute('class') || ''))
                 || (parent && parent.localName === 'li' && NEXT_CLASS.test(String(parent.getAttribute('class') || '')))) {
          classed.push(el);
        }
      }
      found = pick(worded, 'text') || pick(classed, 'class');
      if (found) return found;
      // Page numbers: the control whose number is one past the current page's.
      const current = document.querySelector('[aria-current=page], [aria-current=true]');
      let cur = current ? parseInt((current.textContent || '').trim(), 10) : NaN;
      if (isNaN(cur)) cur = S.page;
      const numbered = controls.filter(
        (el) => (el.textContent || '').trim() === String(cur + 1));
      return pick(numbered, 'page number');
    },
    clickNext() {
      const el = S.next;
      if (!el || (!el.isConnected)) return false;
      // A <link rel=next>, or a link that would open another tab: go there in this one.
      if (el.localName === 'link' || (el.localName === 'a' && el.target && el.target !== '_self' && el.href)) {
        location.href = el.href;
        return true;
      }
      el.click();
      return true;
    },
    token() {
      if (!window[Symbol.for('visx.doc')]) Object.defineProperty(window, Symbol.for('visx.doc'), {value: Math.random()});
      return window[Symbol.for('visx.doc')];
    },
  };
  Object.defineProperty(window, KEY, {value: H, configurable: true});
  return true;
}
