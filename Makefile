VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# the sources byte-compiled: each start reads .pyc (~0.1 s less per process) even where the
# environment turns writing them off (PYTHONDONTWRITEBYTECODE, as containers often do)
COMPILE := $(PY) -m compileall -q model solver

.PHONY: run test bench lint hunt clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,cluster]'
	touch $(STAMP)

run: $(STAMP)
	@$(COMPILE)
	$(VENV)/bin/mtg-outcomes check cases/

# every test, on every core (pytest-xdist; `-n auto` is one worker per core), the 25 slowest listed
test: $(STAMP)
	@$(COMPILE)
	$(PY) -m pytest -n auto --durations=25

lint: $(STAMP)
	$(VENV)/bin/ruff check model solver tests bench
	@# mypy reads packages from folders: mtg_outcomes as a folder of links (solver/'s entries, model/)
	@rm -rf build/typing && mkdir -p build/typing/mtg_outcomes && for f in solver/*; do ln -s "$$PWD/$$f" build/typing/mtg_outcomes/; done && ln -s "$$PWD/model" build/typing/mtg_outcomes/model
	MYPYPATH=build/typing $(VENV)/bin/mypy -p mtg_outcomes

# BASELINE=REV: bench/combat.py runs the same commands on that commit too (ratios in one run)
BASELINE ?=
bench: $(STAMP)
	@$(COMPILE)
	BASELINE=$(BASELINE) $(PY) bench/run.py

MINUTES ?= 30
RSS_MB ?= 3000
KIND ?= timelines
hunt: $(STAMP)
	@$(COMPILE)
	$(PY) tests/hunt.py --kind $(KIND) --minutes $(MINUTES) --rss-mb $(RSS_MB)

clean:
	rm -rf $(VENV) build *.egg-info
