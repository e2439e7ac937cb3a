# reclaimscope: plain Makefile with pkg-config.  `make`, `make check`, `make run`,
# `make SANITIZE=address,undefined`, `make fuzz FUZZ_SECONDS=N`, `make bench`.

VERSION    := 0.1.0
CC         ?= cc
PKGS       := libtracecmd libtraceevent libtracefs jansson ncursesw libzstd zlib cairo fontconfig
PKG_CONFIG ?= pkg-config
O          ?= build

WARN   := -Wall -Wextra -Werror -Wshadow -Wpointer-arith -Wstrict-prototypes \
	  -Wmissing-prototypes -Wno-unused-parameter -Wformat=2 -Wvla -Wno-format-truncation
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 $(WARN) -Iinclude -D_GNU_SOURCE -DRS_VERSION='"$(VERSION)"' -pthread
ifneq ($(SANITIZE),)
CFLAGS  += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=$(SANITIZE)
O       := build-san
endif

PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
# parsers/tracedat/tracedat_ztable.c stands in for two of libtracecmd's functions and fills its
# struct tracecmd_compress_chunk, which libtracecmd does not install: only for the releases
# whose struct is known (1.3 to 1.5, trace-cmd-private.h); any other keeps libtracecmd's own
TRACECMD_VERSION := $(shell $(PKG_CONFIG) --modversion libtracecmd 2>/dev/null)
ifneq ($(filter 1.3.% 1.4.% 1.5.%,$(TRACECMD_VERSION)),)
CFLAGS += -DRS_TRACECMD_CHUNK_ABI
endif
# cairo and fontconfig are loaded by plot when it draws (cmd/plot/plot_cairo.c): not linked
# into the executable, whose every start loaded them; the tools that draw link them
PLOT_PKGS  := cairo fontconfig
PKG_LIBS   = $(shell $(PKG_CONFIG) --libs $(filter-out $(PLOT_PKGS),$(PKGS)) 2>/dev/null)
PLOT_LIBS  = $(shell $(PKG_CONFIG) --libs $(PLOT_PKGS) 2>/dev/null)
LDLIBS    += $(PKG_LIBS) -lm -pthread

# Library code: everything but the command front ends; tests and fuzzers link it too.
LIB_SRC := $(sort $(shell find parsers analyzer models -name "*.c"))
CMD_SRC := $(sort $(shell find cmd -name "*.c"))
LIB_OBJ := $(LIB_SRC:%.c=$(O)/%.o)
# and each command's man-page DESCRIPTION, the part of its docs/COMMAND.md so marked
CMD_OBJ := $(CMD_SRC:%.c=$(O)/%.o) $(O)/gen/cmd_descriptions.o
LIB     := $(O)/libreclaimscope.a
BIN     := reclaimscope
ifneq ($(SANITIZE),)
BIN     := reclaimscope-san
# LeakSanitizer's exit scan of the runtimes' .bss, mapped in one call (tests/san/lsan_prefault.c)
SAN_OBJ := $(O)/tests/san/lsan_prefault.o
endif

TEST_SRC := $(wildcard tests/unit/*.c)
TEST_BIN := $(O)/tests/unit-tests
TOOL_SRC := $(wildcard tests/tools/*.c)
TOOL_BIN := $(TOOL_SRC:tests/tools/%.c=$(O)/tools/%)
# the libFuzzer harnesses built with our compiler and a plain main(), run by `make check` over
# their seeds (tests/e2e/fuzz_harness.sh): a harness that rots is caught there
HARNESS_SRC := $(wildcard tests/fuzz/fuzz_*.c)
HARNESS_BIN := $(HARNESS_SRC:tests/fuzz/%.c=$(O)/tools/%)
TOOL_BIN += $(HARNESS_BIN)

.PHONY: all deps run check check-unit check-e2e check-san check-fresh clean fuzz bench fixtures \
	man install
all: deps-ok $(BIN) $(TOOL_BIN)

# ---- set-up: install what is missing (Debian), or say what to install ----
# Everything the build, the tests (jq, tmux, valgrind, GNU time for memory bounds, procps) and
# make bench (bc, time) call that a minimal Debian 12 (debootstrap --variant=minbase) lacks.
DEB_PKGS := trace-cmd libtracecmd-dev libtraceevent-dev libtracefs-dev libjansson-dev \
	    libncurses-dev libzstd-dev zlib1g-dev pkg-config build-essential jq tmux valgrind \
	    clang libclang-rt-14-dev man-db groff-base bash-completion libcairo2-dev \
	    libxml2-utils time procps bc
deps:
	@./tests/install-deps.sh $(DEB_PKGS)

# Checked on every build so a missing library gives one clear sentence, not 200 errors.
.PHONY: deps-ok
deps-ok:
	@$(PKG_CONFIG) --exists $(PKGS) || { echo "reclaimscope: missing libraries" \
	  "($(PKGS)); run 'make deps' (as root it installs them with apt-get)" >&2; exit 1; }

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

$(O)/gen/cmd_descriptions.c: cmd/man_description.awk $(wildcard docs/*.md)
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	@awk -f cmd/man_description.awk $(sort $(wildcard docs/*.md)) >$@.tmp && mv $@.tmp $@

$(O)/gen/cmd_descriptions.o: $(O)/gen/cmd_descriptions.c
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(CMD_OBJ) $(LIB) $(SAN_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CMD_OBJ) $(SAN_OBJ) $(LIB) $(LDLIBS)

# the recorder's marker formatting the tests give reads this machine cannot make
$(TEST_BIN): $(TEST_SRC:%.c=$(O)/%.o) $(O)/cmd/record/record_numa.o $(SAN_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)/tools/%: tests/tools/%.c $(LIB) $(SAN_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $(LDFLAGS) -o $@ $< $(SAN_OBJ) $(LIB) $(LDLIBS) $(PLOT_LIBS)

$(HARNESS_BIN): $(O)/tools/%: tests/fuzz/%.c tests/fuzz/standalone_main.c tests/fuzz/fuzz_common.h \
		$(LIB) $(SAN_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $(LDFLAGS) -o $@ $< tests/fuzz/standalone_main.c $(SAN_OBJ) \
		$(LIB) $(LDLIBS)

# ---- manual and install: man pages come from the command table (`--man-page`), like --help ----
PREFIX  ?= /usr/local
DESTDIR ?=
MAN_DIR := $(O)/man
COMMANDS = $(shell ./$(BIN) --list-commands 2>/dev/null)
man: $(BIN)
	@mkdir -p $(MAN_DIR)
	./$(BIN) --man-page > $(MAN_DIR)/reclaimscope.1
	@for c in $(COMMANDS); do ./$(BIN) --man-page $$c > $(MAN_DIR)/reclaimscope-$$c.1 || exit 1; done

install: all man
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/doc/reclaimscope
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/reclaimscope
	install -m 644 $(MAN_DIR)/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 cmd/completion/reclaimscope.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/reclaimscope
	install -m 644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/reclaimscope/

FIXTURE_RUN ?= tests/fixtures/contention.dat
run: deps
	$(MAKE) all
	./reclaimscope analyze $(FIXTURE_RUN)
	./reclaimscope plot -o $(O)/run-plot.svg $(FIXTURE_RUN)

# ---- tests ----
# RS_ORACLE_CACHE: each `trace-cmd report` output the tests compare with is computed once per
# run and reused by the later tests and the sanitizer round (tests/lib-e2e.sh, trace_report)
ORACLE := $(CURDIR)/build/oracle
# the builds inside check use every CPU (the tests run one at a time)
JOBS   ?= $(shell nproc 2>/dev/null || echo 1)
check: deps
	$(MAKE) -j$(JOBS) check-build
	rm -rf $(ORACLE)
	RS_ORACLE_CACHE=$(ORACLE) $(MAKE) check-unit check-e2e
	RS_ORACLE_CACHE=$(ORACLE) $(MAKE) check-san
	rm -rf $(ORACLE)

.PHONY: check-build
check-build: all $(TEST_BIN)

check-unit: $(TEST_BIN)
	$(TEST_BIN)

check-e2e: $(BIN) $(TOOL_BIN)
	RS_BIN=./$(BIN) RS_TOOLS=$(O)/tools ./tests/run-e2e.sh

# The whole suite again under ASan/UBSan, in its own build directory. LeakSanitizer runs at
# every exit (leaks proven to be libtracecmd's or libtraceevent's are in tests/lsan.supp);
# UBSan stops at the first report (-fno-sanitize-recover plus halt_on_error).
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:malloc_context_size=100 \
	   LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	   UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# RS_E2E_LIGHT=1: the round cuts repetitions, never a check (tests/lib-e2e.sh, real_traces);
# RS_E2E_LIGHT=0 runs every repetition
RS_E2E_LIGHT ?= 1
# Its build with line tables only (-g1): the reports' stacks and the suppressions still get
# every function, file and line; no variable info, which no report reads (the library's
# objects: 47 -> 40 CPU s of compiling)
SAN_CFLAGS ?= -O2 -g1
check-san:
	CFLAGS="$(SAN_CFLAGS)" $(MAKE) -j$(JOBS) SANITIZE=address,undefined check-build
	$(SAN_ENV) RS_E2E_LIGHT=$(RS_E2E_LIGHT) $(MAKE) SANITIZE=address,undefined check-unit check-e2e

# The README's two commands on a new minimal Debian 12 root (debootstrap, chroot; root only,
# takes a while): tests/check-fresh.sh
check-fresh:
	./tests/check-fresh.sh

fixtures: all
	./tests/fixtures/make-fixtures.sh

# A benchmark, not a test (bench/README.md): records bench/out/bench.dat once (root).
$(O)/tools/floor: bench/floor.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -o $@ $< $(LDLIBS)

# LD_PRELOAD'ed by the bench to split the heap into ours and the libraries'
$(O)/tools/memsplit.so: bench/memsplit.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -Wall -Wextra -Werror -shared -fPIC -o $@ $< -pthread

bench: all $(O)/tools/floor $(O)/tools/memsplit.so
	./bench/run.sh

clean:
	rm -rf build build-san build-fuzz reclaimscope reclaimscope-san

-include $(shell find $(O) -name '*.d' 2>/dev/null)

# ---- fuzzing: libFuzzer harnesses over the loaders (tests/fuzz/), `make fuzz FUZZ_SECONDS=N` ----
# Runs each harness in turn for FUZZ_SECONDS (one process at a time: the machine is shared);
# corpora and crash artifacts stay in build-fuzz/. The parsers are built again with clang,
# coverage and ASan/UBSan. FUZZ_LIBS may name instrumented builds of libtracecmd and
# libtraceevent, so that libFuzzer sees their branches too (see tests/fuzz/README.md).
FUZZ_CC      ?= clang
FUZZ_O       := build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= tracedat text kallsyms
FUZZ_FLAGS   ?=
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS  := -O1 -g -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Iinclude -D_GNU_SOURCE \
		-DRS_VERSION='"$(VERSION)"' -pthread $(FUZZ_SAN)
FUZZ_LIBS    ?= $(PKG_LIBS)
FUZZ_OBJ     := $(patsubst %.c,$(FUZZ_O)/%.o,$(sort $(shell find parsers -name "*.c")))
FUZZ_BIN     := $(FUZZ_TARGETS:%=$(FUZZ_O)/fuzz_%)

.PHONY: fuzz-build
fuzz: fuzz-build
	@r=0; for t in $(FUZZ_TARGETS); do \
		./tests/fuzz/run.sh $$t $(FUZZ_SECONDS) $(FUZZ_FLAGS) || r=1; \
	done; exit $$r

fuzz-build: deps-ok $(FUZZ_BIN)

$(FUZZ_OBJ): $(FUZZ_O)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC-FUZZ $<"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(PKG_CFLAGS) -MMD -MP -c $< -o $@

# linked aside and renamed: a running `-fork` campaign re-executes this file for each job
$(FUZZ_O)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(PKG_CFLAGS) -o $@.tmp $< $(FUZZ_OBJ) \
		$(FUZZ_LIBS) -lzstd -lz -lm -pthread
	@mv -f $@.tmp $@

-include $(shell find $(FUZZ_O) -name '*.d' 2>/dev/null)
