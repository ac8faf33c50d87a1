# Every target installs what it needs first (`make install` creates .venv when missing and builds the C++ libraries
# in build/cpp; `python -m tilelang.cpp` rebuilds what changed since).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install generate check test test-profiles check-metal metal-programs lint demo bench

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet $$($(PY) cmake/build_requirements.py)
	$(PY) -m pip install --quiet --no-build-isolation -e '.[dev]'
	touch $(STAMP)

generate: $(STAMP)
	$(PY) -m generator generate
	$(PY) -m tilelang.cpp

# generated/ as the specs produce it, and the reference in docs/ built by MkDocs, where a warning (a broken link, a
# page missing from mkdocs.yml's navigation) fails the build; the site goes to build/site.
check: $(STAMP)
	$(PY) -m generator check
	$(VENV)/bin/mypy --strict python/tilelang
	$(VENV)/bin/mkdocs build --strict --quiet

test: $(STAMP)
	$(PY) -m tilelang.cpp
	$(PY) -m pytest -q -n auto --dist loadgroup --durations=12

# The Tenstorrent tests whose expectations depend on the API profile (lowering, codegen, the kernel corpus on the
# emulator, data formats), once more under each profile of the backend spec other than the one it selects.
# tests/emulator/test_tt_emulator*.py run their hand-written cases under every profile already. `--dist loadgroup`
# as in `make test`: a file marked xdist_group (test_tt_corpus_compiles.py) runs on one worker, so that its module
# fixtures (the corpus lowered, the host headers' PCH) are made once per profile, not once per worker.
TT_PROFILE_TESTS := $(addprefix tests/tenstorrent/,test_tt_codegen.py test_tt_corpus_compiles.py test_tt_formats.py test_tt_lowering.py test_tt_pipeline.py \
	test_tt_transposed_gemm.py test_tt_nd.py test_tt_scalar_ops.py test_tt_shared_values.py test_tt_errors.py)

OTHER_PROFILES := from tilelang.tenstorrent import intrinsics as i; \
	print(*(p for p in i.PROFILES if p != i.TENSTORRENT_PROFILE))

test-profiles: $(STAMP)
	$(PY) -m tilelang.cpp
	set -e; for profile in $$($(PY) -c "$(OTHER_PROFILES)"); do \
		echo "== TILELANG_TT_API_PROFILE=$$profile"; \
		TILELANG_TT_API_PROFILE=$$profile $(PY) -m pytest -q -n auto --dist loadgroup -m 'not slow' $(TT_PROFILE_TESTS); \
	done

# Every kernel of the test corpus, for every API profile, compiled like tt-metal's JIT against the real headers of
# the profile's ttnn wheel (downloaded once into ~/.cache/tilelang/ttnn); main.cpp's host calls against its
# libtt_metal.so. TT_METAL_SFPI_INCLUDE=<dir> also checks TRISC0/1; TILELANG_CHECK_METAL_OFFLINE_OK=1 skips offline.
check-metal: $(STAMP)
	$(PY) -m tilelang.cpp
	$(PY) -m tools.check_metal

# tt-metal's programming examples, built unmodified against the emulator's CMake package and run, with a pass/fail
# table: TT_METAL_SRC=<a tt-metal source folder> (docs/emulator.md, "The emulator as TT-Metalium"). Not part of `make test`.
metal-programs: $(STAMP)
	$(PY) -m tilelang.cpp
	@test -n "$(TT_METAL_SRC)" || { echo "metal-programs: set TT_METAL_SRC to a tt-metal source folder (see docs/emulator.md)"; exit 2; }
	$(PY) tools/metal_programs.py "$(TT_METAL_SRC)" $(METAL_PROGRAMS_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check generator python tests benchmarks examples tools cmake
	$(VENV)/bin/mypy --strict generator

demo: $(STAMP)
	$(PY) -m generator generate
	$(PY) -m tilelang.cpp
	$(PY) -m generator list
	$(PY) examples/tt_gemm_demo.py

bench: $(STAMP)
	$(PY) -m pip install --quiet --no-build-isolation -e '.[plot]'
	$(PY) benchmarks/bench_generate.py
	$(PY) benchmarks/bench_lower.py
	$(PY) benchmarks/bench_tt_lower.py
	$(PY) benchmarks/bench_tt_emulate.py
	$(PY) benchmarks/bench_tt_perf.py
	$(PY) benchmarks/bench_tt_attention.py
	$(PY) benchmarks/bench_tt_mesh.py
	$(PY) benchmarks/bench_peers.py
