# Two commands on a fresh machine: `make demo` and `make test`.
# Both create .venv, install visx with its dev extra, and make sure a
# Chromium is available; both are safe to repeat and quick when nothing changed.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
DEMO_PAGE := fixtures/demo/index.html

.PHONY: demo test lint browser bench eval clean spa

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -U pip
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

browser: $(STAMP)
	@$(PY) -m visx.render.check || bash scripts/install_chromium.sh
	@$(PY) -m visx.render.check --quiet

demo: browser
	@mkdir -p out
	$(VENV)/bin/visx render $(DEMO_PAGE) --no-js -o out/demo.snapshot.json.gz --screenshot out/demo.png
	$(VENV)/bin/visx extract out/demo.snapshot.json.gz -o out/demo.csv --debug out/report
	$(VENV)/bin/visx extract out/demo.snapshot.json.gz -o out/demo.json
	@echo "open out/report/report.html in a browser; the annotated page is out/report/page.png"

lint: $(STAMP)
	$(VENV)/bin/ruff check visx tests scripts
	$(VENV)/bin/mypy

test: browser lint
	$(PY) -m pytest -q

bench: browser
	$(PY) scripts/bench_render.py
	$(PY) scripts/bench_mine.py

eval: browser
	$(PY) scripts/eval.py ../shared/testbed/dev --out out/eval --data-lists fixtures/testbed/data_lists.json

clean:
	rm -rf out .pytest_cache .mypy_cache .ruff_cache

# Rebuild the client-rendered fixture apps (fixtures/spa/dist, committed so CI needs no Node).
spa:
	cd fixtures/spa/app && npm ci && npm run build
