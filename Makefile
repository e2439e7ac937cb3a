# reclaimscope: plain Makefile with pkg-config.  `make`, `make check`, `make run`,
# `make SANITIZE=address,undefined`, `make fuzz FUZZ_SECONDS=N`, `make bench`.

VERSION    := 0.1.0
CC         ?= cc
PKGS       := libtracecmd libtraceevent libtracefs jansson ncursesw
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
PKG_LIBS   = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
LDLIBS    += $(PKG_LIBS) -lm -pthread

# Library code: everything but the command front ends; tests and fuzzers link it too.
LIB_SRC := $(wildcard parsers/*.c analyzer/*.c models/*.c)
CMD_SRC := $(wildcard cmd/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(O)/%.o)
CMD_OBJ := $(CMD_SRC:%.c=$(O)/%.o)
LIB     := $(O)/libreclaimscope.a
BIN     := reclaimscope
ifneq ($(SANITIZE),)
BIN     := reclaimscope-san
endif

TEST_SRC := $(wildcard tests/unit/*.c)
TEST_BIN := $(O)/tests/unit-tests
TOOL_SRC := $(wildcard tests/tools/*.c)
TOOL_BIN := $(TOOL_SRC:tests/tools/%.c=$(O)/tools/%)

.PHONY: all deps run check check-unit check-e2e check-san clean fuzz bench fixtures
all: deps-ok $(BIN) $(TOOL_BIN)

# ---- set-up: install what is missing (Debian), or say what to install ----
DEB_PKGS := trace-cmd libtracecmd-dev libtraceevent-dev libtracefs-dev libjansson-dev \
	    libncurses-dev pkg-config build-essential jq tmux valgrind clang
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

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(CMD_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CMD_OBJ) $(LIB) $(LDLIBS)

$(TEST_BIN): $(TEST_SRC:%.c=$(O)/%.o) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)/tools/%: tests/tools/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

FIXTURE_RUN ?= tests/fixtures/contention.dat
run: deps
	$(MAKE) all
	./reclaimscope analyze $(FIXTURE_RUN)

# ---- tests ----
check: deps
	$(MAKE) all
	$(MAKE) check-unit check-e2e
	$(MAKE) check-san

check-unit: $(TEST_BIN)
	$(TEST_BIN)

check-e2e: $(BIN) $(TOOL_BIN)
	RS_BIN=./$(BIN) RS_TOOLS=$(O)/tools ./tests/run-e2e.sh

# The whole suite again under ASan/UBSan, in its own build directory.
check-san:
	$(MAKE) SANITIZE=address,undefined check-unit check-e2e

fixtures: all
	./tests/fixtures/make-fixtures.sh

clean:
	rm -rf build build-san build-fuzz reclaimscope reclaimscope-san

-include $(shell find $(O) -name '*.d' 2>/dev/null)
