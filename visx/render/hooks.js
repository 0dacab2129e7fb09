// Installed before any page script (context.add_init_script), in every frame.
// It only observes: what the page has left to do (DOM changes, short timers)
// and the closed shadow roots it attaches, which page code cannot reach later.
(() => {
  const KEY = Symbol.for('visx.hooks');
  if (window[KEY]) return;
  const HORIZON = __HORIZON_MS__, LATER = __LATER_MS__;
  // timers: short one-shot timers (waited for); later: longer ones, up to LATER ms (only
  // reported: a page captured with one pending may not have asked for its data yet).
  const state = {lastMutation: performance.now(), timers: new Map(), later: new Map()};
  Object.defineProperty(window, KEY, {value: state});
  const closed = new WeakMap();
  Object.defineProperty(window, Symbol.for('visx.closedRoots'), {value: closed});
  // Nodes and text coming and going, and the attributes that show or fill content; not
  // style or class, which animations (a progress bar, a carousel) change every frame.
  const opts = {subtree: true, childList: true, characterData: true, attributes: true,
                attributeFilter: ['src', 'srcset', 'href', 'hidden', 'open', 'value', 'aria-busy', 'aria-hidden']};
  // A node whose text keeps changing on its own (a clock, a countdown) is a ticker: once it
  // has changed TICKS times, its text changes no longer count. Elements coming or going
  // always count: that is how lists arrive.
  const TICKS = 3;
  const textTicks = new WeakMap();
  const textOnly = (r) => r.type === 'characterData' || (r.type === 'childList'
    && [...r.addedNodes, ...r.removedNodes].every((n) => n.nodeType === 3));
  const obs = new MutationObserver((records) => {
    for (const r of records) {
      if (textOnly(r)) {
        const owner = r.type === 'characterData' ? r.target.parentNode : r.target;
        if (!owner) continue;
        const n = (textTicks.get(owner) || 0) + 1;
        textTicks.set(owner, n);
        if (n > TICKS) continue;
      }
      state.lastMutation = performance.now();
      return;
    }
  });
  obs.observe(document, opts);
  const native = (fn, name) => {
    Object.defineProperty(fn, 'toString', {value: () => `function ${name}() { [native code] }`});
    return fn;
  };
  // Shadow roots: their changes count for a quiet DOM; closed ones are remembered.
  const attach = Element.prototype.attachShadow;
  if (attach) {
    const wrapped = {attachShadow(init) {
      const root = attach.call(this, init);
      try { obs.observe(root, opts); } catch (e) { /* not observable: nothing to add */ }
      if (init && init.mode === 'closed') closed.set(this, root);
      return root;
    }}.attachShadow;
    Object.defineProperty(Element.prototype, 'attachShadow',
      {value: native(wrapped, 'attachShadow'), writable: true, configurable: true});
  }
  // One-shot timers due within HORIZON ms are work the page has still to do
  // (a client that waits before it fetches). A callback seen firing twice is a
  // loop (a clock, a carousel) and no longer counts.
  const setT = window.setTimeout, clearT = window.clearTimeout;
  const firedFns = new WeakMap(), firedSrc = new Map();
  const keyOf = (fn) => {
    let src = '';
    try { src = Function.prototype.toString.call(fn); } catch (e) { return fn; }
    return src.length > 400 || src.includes('[native code]') ? fn : src;
  };
  const firedCount = (key) => (typeof key === 'string' ? firedSrc.get(key) : firedFns.get(key)) || 0;
  const fired = (key) => {
    if (typeof key === 'string') { if (firedSrc.size < 2000) firedSrc.set(key, firedCount(key) + 1); }
    else firedFns.set(key, firedCount(key) + 1);
  };
  window.setTimeout = native(function setTimeout(fn, ms, ...rest) {
    const delay = Number(ms) || 0;
    if (typeof fn !== 'function' || delay > LATER) return setT.call(window, fn, ms, ...rest);
    const key = keyOf(fn);
    const list = delay > HORIZON ? state.later : state.timers;
    let id = 0;
    id = setT.call(window, function () {
      list.delete(id);
      fired(key);
      return fn.apply(this, arguments);
    }, ms, ...rest);
    if (firedCount(key) < 2) list.set(id, performance.now() + delay);
    return id;
  }, 'setTimeout');
  window.clearTimeout = native(function clearTimeout(id) {
    state.timers.delete(id);
    state.later.delete(id);
    return clearT.call(window, id);
  }, 'clearTimeout');
})();
