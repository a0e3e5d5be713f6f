# libtrim: design-space exploration of DNN accelerators (inference and training).
#
#   make            library (static + shared) and the CLI under build/
#   make check      build and run every Check suite
#   make check SANITIZE=1   the same under AddressSanitizer + UBSan (build-asan/)
#   make run        the README's main job on the shipped default model
#   make bench      speed keys; make sweep: the whole model zoo, time-limited
#   make deps       install the Debian packages the build needs (only missing ones)
#   make install PREFIX=/usr/local
#   make abi-check  fail on any exported symbol without the trim_ prefix

VERSION_MAJOR := 0
VERSION_MINOR := 1
VERSION_PATCH := 0
VERSION := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)

PREFIX ?= /usr/local
CC ?= cc
PKG_CONFIG ?= pkg-config

ifeq ($(SANITIZE),1)
BUILD ?= build-asan
# Python loads the sanitized library: preload the ASan runtime, no leak check
# (the interpreter itself keeps memory at exit).
PYTEST_ENV = LD_PRELOAD=$$($(CC) -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0
OPT := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
SANLD := -fsanitize=address,undefined
else
BUILD ?= build
# -O3: the search's bounds run about 10% faster than at -O2 (make bench);
# no loop into memset: the loops over a few memory levels are cheaper than
# the calls
OPT := -O3 -fno-tree-loop-distribute-patterns
SANLD :=
endif

DEPS_PKGS := yaml-0.1 gsl libprotobuf-c
WARN := -Wall -Wextra -Werror -Wno-format-truncation  # messages are truncated on purpose
CFLAGS_ALL = -std=c11 $(WARN) $(OPT) -fopenmp -fPIC -fvisibility=hidden \
	-D_POSIX_C_SOURCE=200809L -DTRIM_BUILDING \
	-DTRIM_VERSION_MAJOR=$(VERSION_MAJOR) -DTRIM_VERSION_MINOR=$(VERSION_MINOR) \
	-DTRIM_VERSION_PATCH=$(VERSION_PATCH) \
	-Iinclude -Ilib -I$(BUILD)/gen $(shell $(PKG_CONFIG) --cflags $(DEPS_PKGS) 2>/dev/null) $(CFLAGS)
LIBS = $(shell $(PKG_CONFIG) --libs $(DEPS_PKGS) 2>/dev/null || echo -lyaml -lgsl -lgslcblas -lprotobuf-c -lm) -lm
CHECK_LIBS = $(shell $(PKG_CONFIG) --libs check 2>/dev/null || echo -lcheck_pic -pthread -lrt -lm -lsubunit)

.DEFAULT_GOAL := all

# every feature folder of lib/ (lib/cli/ is the CLI's), ONNX import
# (lib/network/onnx/) included, and the onnx.proto code protobuf-c generates
LIB_SRC := $(sort $(filter-out lib/cli/%,$(wildcard lib/*.c lib/*/*.c lib/*/*/*.c)))
LIB_SRC += $(BUILD)/gen/onnx/onnx.pb-c.c
CLI_SRC := $(sort $(wildcard lib/cli/*.c))
TEST_SRC := $(sort $(wildcard test/*.c))
BENCH_SRC := $(sort $(wildcard test/bench/*.c))
EXAMPLE_SRC := $(sort $(wildcard examples/*/main.c))
EXAMPLES := $(patsubst examples/%/main.c,$(BUILD)/bin/example-%,$(EXAMPLE_SRC))

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)

# ONNX import (lib/network/onnx/): Debian's onnx.proto (libonnx-dev) compiled by
# protobuf-c-compiler into $(BUILD)/gen/onnx at build time (never vendored).
ONNX_PROTO ?= /usr/include/onnx/onnx.proto
$(BUILD)/gen/onnx/onnx.pb-c.c $(BUILD)/gen/onnx/onnx.pb-c.h &: $(ONNX_PROTO)
	@mkdir -p $(BUILD)/gen/onnx
	@test -r $(ONNX_PROTO) || { echo "$(ONNX_PROTO) missing: make deps (libonnx-dev)"; exit 1; }
	cp $(ONNX_PROTO) $(BUILD)/gen/onnx/onnx.proto
	cd $(BUILD)/gen/onnx && protoc-c --c_out=. onnx.proto
$(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard lib/network/onnx/*.c)): $(BUILD)/gen/onnx/onnx.pb-c.h
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/obj/%.o)

STATIC := $(BUILD)/lib/libtrim.a
SONAME := libtrim.so.$(VERSION_MAJOR)
SHARED := $(BUILD)/lib/libtrim.so.$(VERSION)
CLI := $(BUILD)/bin/trim
TESTBIN := $(BUILD)/test/check_trim
BENCHBIN := $(BUILD)/bin/trim-bench

.PHONY: mutate all examples check run bench sweep deps install wheel uninstall install-check doc-check man abi-check header-check api-doc api-doc-check folder-check clean
all: $(STATIC) $(SHARED) $(CLI)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(STATIC): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(SHARED): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -shared -fopenmp $(SANLD) -Wl,-soname,$(SONAME) -o $@ $^ $(LIBS)
	ln -sf libtrim.so.$(VERSION) $(BUILD)/lib/$(SONAME)
	ln -sf $(SONAME) $(BUILD)/lib/libtrim.so

# Command and suite tables are generated from the files present, so modules
# add a CLI command (lib/cli/cmd_NAME.c with a "// trim-cli: NAME: summary"
# line) or a suite (test/check_NAME.c defining NAME_suite) without editing a list.
$(BUILD)/gen/commands.h: $(CLI_SRC) Makefile
	@mkdir -p $(dir $@)
	@grep -h '^// trim-cli: ' $(CLI_SRC) | sed -E 's|^// trim-cli: ([a-z_]+): (.*)$$|TRIM_CLI_CMD(\1, "\2")|' > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/suites.h: $(TEST_SRC) Makefile
	@mkdir -p $(dir $@)
	@for f in $(notdir $(basename $(filter test/check_%.c,$(TEST_SRC)))); do \
		echo "TRIM_SUITE($${f#check_})"; done > $@.tmp && mv $@.tmp $@

$(CLI_OBJ): $(BUILD)/gen/commands.h

# The data directories compiled into lib/util/datadir.c: the installed one
# (DATADIR, PREFIX/share/trim) and this source tree. Rewritten only when
# they change, so that `make install PREFIX=...` rebuilds what depends on it.
DATADIR ?= $(PREFIX)/share/trim
$(BUILD)/gen/datadir.h: FORCE
	@mkdir -p $(dir $@)
	@printf '#define TRIM_DATADIR "%s"\n#define TRIM_SRCDIR "%s"\n' '$(DATADIR)' '$(CURDIR)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/obj/lib/util/datadir.o: $(BUILD)/gen/datadir.h

# The digest of the library's sources (lib/ but the CLI's, and the public
# headers: the cost model and everything around it), compiled into
# lib/util/model_digest.c: it stamps every result file a resumed run reads
# back (docs/guide.md, "Resuming"), so that a library rebuilt with another
# cost model but the same version number recomputes them. The SHA-256 of
# `sha256sum` over the files in byte order of their paths: deterministic,
# computed at every make (a few milliseconds), rewritten only when it
# changes (so an added, edited or removed source rebuilds it).
MODEL_SRC = $(sort $(filter-out lib/cli/%,$(wildcard lib/*.[ch] lib/*/*.[ch] lib/*/*/*.[ch])) \
	$(wildcard include/*.h include/*/*.h))
$(BUILD)/gen/model_digest.h: FORCE
	@mkdir -p $(dir $@)
	@command -v sha256sum >/dev/null || { echo "$@: sha256sum (coreutils) is needed"; exit 1; }
	@d=$$(sha256sum $(MODEL_SRC) | sha256sum | cut -c1-64) && \
		printf '#define TRIM__MODEL_DIGEST "%s"\n' "$$d" > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/obj/lib/util/model_digest.o: $(BUILD)/gen/model_digest.h
FORCE:
$(BUILD)/obj/test/main.o: $(BUILD)/gen/suites.h

$(CLI): $(CLI_OBJ) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) -fopenmp $(SANLD) -o $@ $(CLI_OBJ) $(STATIC) $(LIBS)

$(TESTBIN): $(TEST_OBJ) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) -fopenmp $(SANLD) -o $@ $(TEST_OBJ) $(STATIC) $(CHECK_LIBS) $(LIBS)

# trim-mpi, the MPI front end (lib/cli/mpi/, docs/guide.md "Running on a
# cluster"): built when Open MPI's mpicc is there. It links the CLI's
# commands (lib/cli/main.c again, its main() renamed) and libtrim; the
# library and trim never link MPI.
MPICC ?= $(shell command -v mpicc 2>/dev/null)
MPIRUN ?= $(shell command -v mpirun 2>/dev/null)
MPI_SRC := $(sort $(wildcard lib/cli/mpi/*.c))
MPI_OBJ := $(MPI_SRC:%.c=$(BUILD)/obj/%.o)
MPIBIN := $(BUILD)/bin/trim-mpi
MPI_CLI_OBJ := $(filter-out $(BUILD)/obj/lib/cli/main.o,$(CLI_OBJ)) $(BUILD)/obj/lib/cli/mpi/cli_main.o
$(MPI_OBJ): $(BUILD)/obj/%.o: %.c $(BUILD)/gen/commands.h
	@mkdir -p $(dir $@)
	$(MPICC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@
$(BUILD)/obj/lib/cli/mpi/cli_main.o: lib/cli/main.c $(BUILD)/gen/commands.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Dmain=trim__cli_main_of_trim -MMD -MP -c $< -o $@
$(MPIBIN): $(MPI_OBJ) $(MPI_CLI_OBJ) $(STATIC)
	@mkdir -p $(dir $@)
	$(MPICC) -fopenmp $(SANLD) -o $@ $(MPI_OBJ) $(MPI_CLI_OBJ) $(STATIC) $(LIBS)
ifneq ($(MPICC),)
all: $(MPIBIN)
endif

# Examples are clients of the public API only (include/, not lib/).
examples: $(EXAMPLES)
$(BUILD)/bin/example-%: examples/%/main.c $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(OPT) -fopenmp -D_POSIX_C_SOURCE=200809L -Iinclude -o $@ $< $(STATIC) $(LIBS)

$(BENCHBIN): $(BENCH_OBJ) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) -fopenmp $(SANLD) -o $@ $(BENCH_OBJ) $(STATIC) $(LIBS)

# The suites run from the top of the tree (they read models/ and test/data/).
# CK_FORK=yes isolates each test; the CLI tests need the built binary.
check: all examples $(TESTBIN) abi-check header-check api-doc-check folder-check
	TRIM_CLI=$(CURDIR)/$(CLI) TRIM_SHARED=$(CURDIR)/$(SHARED) TRIM_ONNX_DIR=$(CURDIR)/$(BUILD)/test/onnx $(TESTBIN)
	$(PYTEST_ENV) TRIM_LIBRARY=$(CURDIR)/$(SHARED) $(PYTHON) test/python/test_binding.py
ifneq ($(SANITIZE),1)
	$(MAKE) --no-print-directory install-check
	$(DOC_ENV) $(PYTHON) test/docs/run_doc_commands.py $(BUILD)
	@# trim-mpi on 1, 2, 3 ranks against trim (not under the sanitizers: Open MPI keeps memory at exit)
	@if [ -n "$(MPIRUN)" ] && [ -x $(MPIBIN) ]; then sh test/mpi/check.sh $(BUILD); \
	else echo "mpi-check: skipped: no mpirun and mpicc (make deps installs Open MPI)"; fi
endif

run: all
	$(CLI) explore --threads 2

bench: $(BENCHBIN) $(if $(MPICC),$(MPIBIN))
	$(BENCHBIN)
	@if [ -n "$(MPIRUN)" ] && [ -x $(MPIBIN) ]; then sh test/mpi/bench.sh $(BUILD); \
	else echo "mpi_explore_speedup_2ranks: -1 (no mpirun and mpicc: make deps installs Open MPI)"; \
	echo "mpi_map_speedup_2ranks: -1 (no mpirun and mpicc: make deps installs Open MPI)"; fi

# The model zoo as the search's benchmark (docs/model.md, "The zoo sweep"):
# 208 time-limited trim network runs, one thread each, two side by side.
SWEEP_BUDGET ?= 10
SWEEP_TABLE ?=
sweep: $(CLI)
	$(PYTHON) test/bench/sweep.py --trim $(CLI) --budget $(SWEEP_BUDGET) --jobs 2 $(if $(SWEEP_TABLE),--table $(SWEEP_TABLE))

# Mutation testing (test/mutate/): each mutant of the model rules, the
# search's bounds and cuts, the sparse evaluation, the resume checks and the
# ONNX reader applied to a copy of the tree in build-mutate/, rebuilt, and
# the suites that should catch it run; prints the score. MUTATE_ONLY=PREFIX
# runs the mutants whose id starts with it.
MUTATE_ONLY ?=
mutate:
	$(PYTHON) test/mutate/run.py $(if $(MUTATE_ONLY),--only $(MUTATE_ONLY))

# Exported symbols of the shared library must all be public trim_ API.
abi-check: $(SHARED)
	@bad=$$(nm -D --defined-only $(SHARED) | awk '$$2 ~ /[TDBRV]/ {print $$3}' \
		| grep -v '^trim_[a-z]' | grep -v '^_' ; \
		nm -D --defined-only $(SHARED) | awk '{print $$3}' | grep '^trim__'); \
	if [ -n "$$bad" ]; then echo "abi-check: unexpected exported symbols:"; echo "$$bad"; exit 1; fi; \
	echo "abi-check: $$(nm -D --defined-only $(SHARED) | grep -c ' T trim_') trim_ symbols exported, nothing else"

# Every public header compiles alone, pedantic C11.
header-check:
	@mkdir -p $(BUILD)/hdr
	@for h in include/trim.h include/trim/*.h; do \
		echo "#include \"$$(basename $$h)\"" > $(BUILD)/hdr/t.c; \
		$(CC) -std=c11 -pedantic -Wall -Wextra -Werror -Iinclude -Iinclude/trim \
			-fsyntax-only $(BUILD)/hdr/t.c || { echo "header-check: $$h"; exit 1; }; \
	done; echo "header-check: every public header compiles alone"

# No circles between lib/'s folders (#35): a folder includes only the headers
# of folders below it; tools/folder-cycles.py names the include edges of a
# circle, or prints the folders row by row. First the tool itself must find
# a circle of two folders made for it (a tool that never fails checks nothing).
folder-check:
	@t=$$(mktemp -d) && mkdir -p $$t/a $$t/b && \
	printf '#include "b/y.h"\n' > $$t/a/x.h && printf '#include "../a/x.h"\n' > $$t/b/y.h && \
	if $(PYTHON) tools/folder-cycles.py $$t > $$t/out; then rm -rf $$t; \
		echo "folder-check: tools/folder-cycles.py missed a circle a <-> b"; exit 1; fi; \
	grep -q 'a/x.h' $$t/out || { cat $$t/out; rm -rf $$t; echo "folder-check: the circle's edges not named"; exit 1; }; \
	rm -rf $$t
	@$(PYTHON) tools/folder-cycles.py lib

# docs/api.md: every public declaration with its comment, module by module.
api-doc:
	@{ echo "# C API reference"; echo; \
	   echo "Generated from the public headers by \`make api-doc\`; do not edit."; \
	   for h in include/trim/*.h; do \
		echo; echo "## \`$$h\`"; echo; echo '```c'; \
		awk '/^#(ifndef|define|endif|ifdef|else|if) / || /^#endif/ || /^#include/ || /^extern "C"/ || /^}$$/ {next} \
		     /TRIM_API __attribute__/ || /^#define TRIM_API$$/ {next} {print}' $$h | cat -s; \
		echo '```'; done; } > docs/api.md
	@echo "api-doc: docs/api.md written"

# docs/api.md must match the headers.
api-doc-check:
	@mkdir -p $(BUILD)
	@cp docs/api.md $(BUILD)/api.md.committed 2>/dev/null || { echo "api-doc-check: docs/api.md is missing: run make api-doc"; exit 1; }
	@$(MAKE) --no-print-directory api-doc >/dev/null
	@if cmp -s docs/api.md $(BUILD)/api.md.committed; then echo "api-doc-check: docs/api.md matches the headers"; \
	else cp $(BUILD)/api.md.committed docs/api.md; echo "api-doc-check: docs/api.md is stale: run make api-doc and commit it"; exit 1; fi

DEB_PKGS := gcc make libyaml-dev libgsl-dev check pkg-config python3 python3-matplotlib chromium \
	libprotobuf-c-dev protobuf-c-compiler libonnx-dev python3-onnx python3-yaml \
	python3-pip python3-setuptools python3-pandas \
	clang libclang-rt-14-dev libomp-dev \
	openmpi-bin libopenmpi-dev # make fuzz (test/fuzz/fuzz.mk); trim-mpi and its test (lib/cli/mpi/)
deps:
	@missing=""; for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' \
			|| missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then echo "deps: all of $(DEB_PKGS) are installed"; \
	else echo "deps: installing$$missing"; \
		SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; fi

# make install PREFIX=... (DESTDIR for staging): the library, headers, trim.pc,
# the CLI and its man pages (generated from its --help text), the data under
# PREFIX/share/trim (energy_tables/, models/; compiled in as the default data
# directory), and the Python package for the system's python3.
PYTHON ?= /usr/bin/python3
PYTHON_VERSION = $(shell $(PYTHON) -c 'import sys; print("python%d.%d" % sys.version_info[:2])' 2>/dev/null)
PYTHONDIR ?= $(shell $(PYTHON) tools/python-dir.py '$(PREFIX)' 2>/dev/null)
MANDIR ?= $(PREFIX)/share/man
MAN_STAMP := $(BUILD)/man/.stamp

man: $(MAN_STAMP)
$(MAN_STAMP): $(CLI) tools/gen-man.sh
	@rm -rf $(BUILD)/man
	tools/gen-man.sh $(CLI) $(BUILD)/man
	@touch $@

install: $(STATIC) $(SHARED) $(CLI) $(MAN_STAMP) $(if $(MPICC),$(MPIBIN))
	install -d $(DESTDIR)$(PREFIX)/include/trim $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 include/trim.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 include/trim/*.h $(DESTDIR)$(PREFIX)/include/trim/
	install -m 644 $(STATIC) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libtrim.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libtrim.so
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/
	if [ -x $(MPIBIN) ]; then install -m 755 $(MPIBIN) $(DESTDIR)$(PREFIX)/bin/; fi
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' lib/trim.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/trim.pc
	install -d $(DESTDIR)$(DATADIR) $(DESTDIR)$(MANDIR)/man1
	rm -rf $(DESTDIR)$(DATADIR)/energy_tables $(DESTDIR)$(DATADIR)/models
	cp -R energy_tables models $(DESTDIR)$(DATADIR)/
	chmod -R u=rwX,go=rX $(DESTDIR)$(DATADIR)/energy_tables $(DESTDIR)$(DATADIR)/models
	install -m 644 $(BUILD)/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	@if [ -z "$(PYTHON_VERSION)" ]; then echo "install: no $(PYTHON): the Python package is not installed"; else \
		tmp=$$(mktemp -d) && cp -R python/pyproject.toml python/README.md python/libtrim $$tmp/ && \
		rm -rf $$tmp/libtrim/__pycache__ && \
		echo "$(PYTHON) -m pip install --no-build-isolation --no-index --no-deps --upgrade --target $(DESTDIR)$(PYTHONDIR) ./python" && \
		$(PYTHON) -m pip install -q --no-build-isolation --no-index --no-deps --upgrade --no-compile \
			--root-user-action=ignore --target $(DESTDIR)$(PYTHONDIR) $$tmp; \
		st=$$?; rm -rf $$tmp; [ $$st != 0 ] || [ -n "$(DESTDIR)" ] || $(PYTHON) tools/python-dir.py --note '$(PYTHONDIR)'; \
		exit $$st; fi

# make wheel: a wheel of the Python package that carries this build's library
# and the data (python/setup.py), into $(BUILD)/wheel; pip install it anywhere
# with the same system libraries (libyaml, GSL, protobuf-c, libgomp).
wheel: $(SHARED)
	rm -rf $(BUILD)/wheel
	TRIM_BUILD_DIR=$(CURDIR)/$(BUILD) $(PYTHON) -m pip wheel -q --no-build-isolation --no-index --no-deps \
		-w $(BUILD)/wheel ./python
	@ls $(BUILD)/wheel/*.whl

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/include/trim $(DESTDIR)$(PREFIX)/include/trim.h
	rm -f $(DESTDIR)$(PREFIX)/lib/libtrim.* $(DESTDIR)$(PREFIX)/lib/pkgconfig/trim.pc
	rm -f $(DESTDIR)$(PREFIX)/bin/trim $(DESTDIR)$(PREFIX)/bin/trim-mpi $(DESTDIR)$(MANDIR)/man1/trim.1 $(DESTDIR)$(MANDIR)/man1/trim-*.1
	rm -rf $(DESTDIR)$(DATADIR)
	rm -rf $(DESTDIR)$(PYTHONDIR)/libtrim $(DESTDIR)$(PYTHONDIR)/libtrim-*.dist-info

# The documents' mpirun lines run as root in CI and containers: Open MPI
# refuses root without these (docs/cluster.md).
DOC_ENV := OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# Every command line quoted in README.md, docs/, examples/*/README.md and
# python/README.md runs (test/docs/run_doc_commands.py says which are not).
doc-check: all examples
	$(DOC_ENV) $(PYTHON) test/docs/run_doc_commands.py $(BUILD)

# Install into a temporary PREFIX and use it from another directory: the
# installed trim resolves `technology: 45nm` from PREFIX/share/trim, the
# installed Python package finds the installed library by itself. The build
# is left compiled for the default PREFIX again.
install-check:
	@tmp=$$(mktemp -d) && \
	$(MAKE) --no-print-directory -s PREFIX=$$tmp/prefix install >/dev/null && \
	TRIM=$$tmp/prefix/bin/trim PREFIX_DIR=$$tmp/prefix PYTHON=$(PYTHON) TREE_TRIM=$(CURDIR)/$(CLI) TREE=$(CURDIR) \
		PYTHONDIR=$$tmp/prefix/lib/$(PYTHON_VERSION)/dist-packages sh test/install/check.sh; st=$$?; \
	rm -rf $$tmp; $(MAKE) --no-print-directory -s all; exit $$st

clean:
	rm -rf build build-asan build-fuzz

include test/fuzz/fuzz.mk

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BENCH_OBJ:.o=.d) $(MPI_OBJ:.o=.d)
