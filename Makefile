# The README's test command is `make check`; .ci/run calls it after installing everything.
PYTHON ?= python
SRC := mytriton tests lit_tests examples benchmarks

.PHONY: check lint format typecheck test lit example triton-reference

# Every step runs, whatever an earlier one gave (a pytest failure still runs lit); the last line
# names the steps that failed, and the status is non-zero if any did.
CHECK_STEPS := lint typecheck test lit

check:
	@failed=""; \
	for step in $(CHECK_STEPS); do $(MAKE) --no-print-directory $$step || failed="$$failed $$step"; done; \
	if [ -n "$$failed" ]; then echo "make check: FAILED:$$failed"; exit 1; fi; \
	echo "make check: $(CHECK_STEPS) passed"

lint:
	$(PYTHON) -m ruff check $(SRC)
	$(PYTHON) -m ruff format --check $(SRC)

format:
	$(PYTHON) -m ruff check --fix $(SRC)
	$(PYTHON) -m ruff format $(SRC)

typecheck:
	$(PYTHON) -m mypy

# pytest exits with 5 when it collects nothing, which fails the build. One worker per core
# (pytest-xdist); loadgroup keeps an xdist_group's tests on one worker (they share setup).
test:
	$(PYTHON) -m pytest -q -n auto --dist loadgroup

# lit must discover tests: an empty run is a failure.
lit:
	@out=$$($(PYTHON) -c "from lit.main import main; main()" -sv lit_tests 2>&1); status=$$?; echo "$$out" | tail -n 25; \
	  echo "$$out" | grep -Eq "Passed *: *[1-9]" || { echo "lit ran no passing tests"; exit 1; }; \
	  exit $$status

example:
	$(PYTHON) examples/add.py

# Real Triton for tests/differential (its interpreter runs on torch CPU tensors), in its own
# venv: mytriton's tests import it only through a subprocess.
triton-reference: .triton-reference/bin/python

.triton-reference/bin/python:
	python3 -m venv .triton-reference
	.triton-reference/bin/python -m pip install --upgrade pip
	.triton-reference/bin/python -m pip install "triton==3.6.0" "torch==2.13.0" "numpy<2.4"
