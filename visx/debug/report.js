// visx report: boxes on the screenshot <-> rows of the tables. Page text only
// ever reaches the DOM through textContent.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("visx-data").textContent);
  var shot = document.querySelector(".shot");
  var info = document.querySelector(".info");
  var stage = document.querySelector(".stage");
  var wrap = document.querySelector(".stage-wrap");
  var status = document.getElementById("status");
  var selected = [];

  function byKey(key) {
    return document.querySelectorAll('[data-key="' + key.replace(/[^a-z0-9]/gi, "") + '"]');
  }

  function describe(key) {
    var d = data.keys[key];
    return d ? d : key;
  }

  function select(key, from) {
    selected.forEach(function (el) { el.classList.remove("sel"); });
    selected = Array.prototype.slice.call(byKey(key));
    selected.forEach(function (el) { el.classList.add("sel"); });
    status.textContent = describe(key);
    selected.forEach(function (el) {
      var inShot = shot.contains(el);
      if ((from === "box" && !inShot) || (from === "row" && inShot)) {
        el.scrollIntoView({ block: "center", inline: "nearest" });
      }
    });
  }

  shot.addEventListener("click", function (ev) {
    var el = ev.target.closest("[data-key]");
    if (!el) return;
    var key = el.getAttribute("data-key");
    if (el.classList.contains("rg")) {  // a region's tag: go to its section
      var sec = document.getElementById("sec-" + key);
      if (sec) sec.scrollIntoView({ block: "start" });
      status.textContent = describe(key);
      return;
    }
    select(key, "box");
  });

  info.addEventListener("click", function (ev) {
    var row = ev.target.closest("tr[data-key]");
    if (row) select(row.getAttribute("data-key"), "row");
  });

  document.querySelectorAll(".toolbar input[data-layer]").forEach(function (cb) {
    cb.addEventListener("change", function () {
      document.body.classList.toggle("hide-" + cb.getAttribute("data-layer"), !cb.checked);
    });
  });

  var zoom = document.getElementById("zoom");
  function applyZoom() {
    var z = zoom.value === "fit" ? Math.min(1, (shot.clientWidth - 2) / data.image[0]) : parseFloat(zoom.value);
    stage.style.transform = "scale(" + z + ")";
    wrap.style.width = Math.ceil(data.image[0] * z) + "px";
    wrap.style.height = Math.ceil(data.image[1] * z) + "px";
  }
  zoom.addEventListener("change", applyZoom);
  window.addEventListener("resize", function () { if (zoom.value === "fit") applyZoom(); });

  var head = document.querySelector("header");
  document.documentElement.style.setProperty("--head", head.offsetHeight + "px");
  applyZoom();
})();
