"""Harvest limits and word lists, each with its reason."""

from __future__ import annotations

MORE_WORDS: tuple[str, ...] = (
    # English
    "load more", "show more", "see more", "view more", "more results", "load more results",
    "show more results", "more items", "more products", "more posts", "more", "show all",
    # German, French, Spanish, Portuguese, Italian, Dutch
    "mehr laden", "mehr anzeigen", "weitere laden", "weitere anzeigen", "mehr ergebnisse",
    "voir plus", "afficher plus", "charger plus", "plus de résultats",
    "cargar más", "ver más", "mostrar más", "más resultados",
    "carregar mais", "ver mais", "mostrar mais",
    "mostra altri", "carica altri", "vedi altri", "mostra di più",
    "meer laden", "toon meer", "meer weergeven",
    # Polish, Swedish, Danish/Norwegian, Finnish, Turkish, Russian
    "pokaż więcej", "załaduj więcej", "visa fler", "visa mer", "vis flere", "vis mere", "näytä lisää",
    "daha fazla göster", "daha fazla yükle", "показать ещё", "показать еще", "показать больше",
    "загрузить ещё", "загрузить еще",
    # Chinese, Japanese, Korean
    "加载更多", "查看更多", "显示更多", "載入更多", "顯示更多", "もっと見る", "さらに表示", "もっと読み込む",
    "더 보기", "더보기",
)
"""Labels of a "Load more" control (whole label, case-insensitive, trailing dots allowed).
Matched only on short labels (40 chars) placed after the list, so "more" alone is safe."""

NEXT_WORDS: tuple[str, ...] = (
    "next", "next page", "next »", "next ›", "next >", "next →", "»", "›", ">", "→", "> >", "›»",
    "weiter", "nächste", "nächste seite", "suivant", "page suivante", "siguiente", "página siguiente",
    "próxima", "próxima página", "próximo", "successivo", "successiva", "pagina successiva", "avanti",
    "volgende", "volgende pagina", "następna", "następna strona", "nästa", "næste", "neste", "seuraava",
    "sonraki", "следующая", "далее", "вперёд", "下一页", "下一頁", "下页", "次へ", "次のページ", "다음",
)
"""Labels (text, aria-label or title) of a next-page control; arrows only as the whole label."""

NEXT_TERMS: tuple[str, ...] = (
    "next", "weiter", "nächste", "suivante", "suivant", "siguiente", "próxima", "próximo", "successiva",
    "successivo", "volgende", "następna", "nästa", "næste", "neste", "seuraava", "sonraki", "следующая",
    "下一页", "次の", "다음",
)
"""Next words that, beside a page word (``PAGE_TERMS``) in a short label, name a next-page
control written out ("Go to next page", "Nächste Seite anzeigen")."""

PAGE_TERMS: tuple[str, ...] = (
    "page", "seite", "página", "pagina", "strona", "sida", "side", "sivu", "sayfa", "страница", "ページ", "页",
    "페이지", "results", "ergebnisse", "résultats", "resultados",
)
"""Words for a page (or a page of results) in the same languages."""

GROWTH_MIN_WAIT_S = 0.6
"""After a scroll or a click, the least time given to the page before "nothing new"
is believed: loaders debounce scroll events (100-300 ms) and IntersectionObservers
report on the next frames. While the page has requests in flight, short timers or
DOM changes, the wait goes on (up to ``timeout_s``)."""

GROWTH_WAIT_FACTOR = 1.5
"""The least wait then grows to this times the slowest answer seen so far: a site
whose batches took 2 s is given 3 s before a scroll is judged fruitless."""

STEP_QUIET_MS = 200
"""The DOM must be quiet this long after new rows appear before they are taken:
frameworks render a batch over a few frames."""

VIRTUAL_STEP_SHARE = 0.85
"""Scroll a virtualised list by this share of its visible height per step, so each
view overlaps the last by a row or two (overlapping rows are keyed and counted once)."""

VIRTUAL_MAX_STEPS = 5000
"""Scroll steps through one virtualised list (not counted as pages: they fetch
nothing). 5,000 steps of about 15 rows cover 75,000 rows, past ``MAX_ROWS``."""

VIRTUAL_SETTLE_MS = 40
"""DOM quiet needed after a scroll step of a virtualised list: it re-renders its
window of rows from data it already has, within a frame or two (16-33 ms). 80 ms
gave the same rows on the four fixture grids at 1.3x the time per step."""

MAX_ROWS = 50_000
"""Rows kept across all steps. Each row is a small subtree held as columns; at
50,000 rows (about 500,000 elements) a harvest still fits in a few hundred MB,
and a page that produces more is stopped with a note."""

VIRTUAL_CONTENT_RATIO = 1.5
"""A list is virtualised when its content (the tall container its rows are placed
in) is this many times taller than the span of the rows mounted in it."""

VIRTUAL_MIN_WAIT_S = 0.3
"""After a scroll step of a virtualised list, the time given before "no new rows" is
believed: it re-renders on the next frames (React batches the update), so new
rows normally show within 50 ms and the step ends as soon as they are quiet."""

GROWTH_POLL_S = 0.05
"""How often a step asks the page whether new rows came (one small evaluate)."""

VIRTUAL_POLL_S = 0.025
"""The same for a virtualised list, whose rows come within a frame or two: polling
at half the interval saves about a quarter of each step's time."""
