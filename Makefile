# ssdbench build. Plain make: one binary and a few test programs, no generated
# code, no configure step; pkg-config finds liburing, SQLite and jansson.
#
#   make            release build:   build/ssdbench
#   make test       sanitizer build (ASan + UBSan) and every test, each
#                   fuzzer included for a few seconds
#   make test-vm    only the VM tests (tests/vm/: a QEMU guest, real drivers)
#   make fuzz       the libFuzzer harnesses of tests/fuzz, FUZZ_SECONDS
#                   each (default 60), with clang, ASan and UBSan
#   make install    build/ssdbench into $(PREFIX)/bin, its manual page and
#                   bash completion beside it (DESTDIR for packages)

PREFIX  ?= /usr/local
CC      ?= gcc
PKGS    := liburing sqlite3 jansson
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
BASE    := -std=c11 -D_GNU_SOURCE -Isrc -pthread $(WARN) -g
DEPS_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
DEPS_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm -pthread

# Every .c below src/ except the CLI entry point goes into a static library
# that the binary and the tests link, so a new file needs no Makefile edit.
LIB_SRC  := $(filter-out src/cli/main.c,$(sort $(wildcard src/*/*.c)))
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))

REL_DIR  := build/rel
SAN_DIR  := build/san
REL_FLAGS := $(BASE) -O2 $(DEPS_CFLAGS) $(CFLAGS)
SAN_FLAGS := $(BASE) -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
             -fno-sanitize-recover=undefined -DSSDBENCH_SIM_CHECKS $(DEPS_CFLAGS) $(CFLAGS)

.PHONY: all test test-vm unit san fuzz fuzz-build install clean man
all: build/ssdbench build/ssdbench.1
man: build/ssdbench.1

# The manual page is written from the binary's own --help texts.
build/ssdbench.1: build/ssdbench scripts/gen-man.sh
	scripts/gen-man.sh build/ssdbench >$@.tmp && mv $@.tmp $@

# variant NAME,DIR,FLAGS[,COMPILER]: the library built into DIR.
define variant
$(1)_OBJ := $$(patsubst src/%.c,$(2)/%.o,$$(LIB_SRC))
$(2)/%.o: src/%.c
	@mkdir -p $$(dir $$@)
	$$(or $(4),$$(CC)) $(3) -MMD -MP -c $$< -o $$@
$(2)/libssdbench.a: $$($(1)_OBJ)
	@rm -f $$@
	ar rcs $$@ $$^
-include $$($(1)_OBJ:.o=.d)
endef
$(eval $(call variant,REL,$(REL_DIR),$(REL_FLAGS)))
$(eval $(call variant,SAN,$(SAN_DIR),$(SAN_FLAGS)))

# The fuzzers: clang's libFuzzer over the library built with clang, ASan
# and UBSan (libclang-rt-14-dev brings the runtime).
FUZZ_CC      ?= clang
FUZZ_DIR     := build/fuzz
FUZZ_SECONDS ?= 60
FUZZ_FLAGS   := $(BASE) -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
                -fno-sanitize-recover=undefined $(DEPS_CFLAGS) $(CFLAGS)
$(eval $(call variant,FUZZ,$(FUZZ_DIR),$(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_CC)))
FUZZ_SRC  := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(FUZZ_DIR)/bin/%,$(FUZZ_SRC))
$(FUZZ_DIR)/bin/%: tests/fuzz/%.c tests/fuzz/fuzz_common.h $(FUZZ_DIR)/libssdbench.a
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -Itests/fuzz -o $@ $< $(FUZZ_DIR)/libssdbench.a $(DEPS_LIBS)

build/ssdbench: $(REL_DIR)/cli/main.o $(REL_DIR)/libssdbench.a
	$(CC) $(REL_FLAGS) -o $@ $^ $(DEPS_LIBS) $(LDFLAGS)

$(SAN_DIR)/ssdbench: $(SAN_DIR)/cli/main.o $(SAN_DIR)/libssdbench.a
	$(CC) $(SAN_FLAGS) -o $@ $^ $(DEPS_LIBS) $(LDFLAGS)

$(SAN_DIR)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(SAN_DIR)/libssdbench.a
	@mkdir -p $(dir $@)
	$(CC) $(SAN_FLAGS) -Itests/unit -o $@ $< $(SAN_DIR)/libssdbench.a $(DEPS_LIBS)

UNIT_BINS := $(patsubst tests/unit/%.c,$(SAN_DIR)/tests/%,$(TEST_SRC))
san: $(SAN_DIR)/ssdbench $(UNIT_BINS)
unit: $(UNIT_BINS)

test: all san fuzz-build
	tests/run.sh

test-vm: all san
	tests/run.sh vm_

fuzz-build: $(FUZZ_BINS)
fuzz: fuzz-build build/ssdbench
	tests/fuzz/run.sh $(FUZZ_SECONDS)

install: build/ssdbench build/ssdbench.1
	install -D -m 0755 build/ssdbench $(DESTDIR)$(PREFIX)/bin/ssdbench
	install -D -m 0644 build/ssdbench.1 $(DESTDIR)$(PREFIX)/share/man/man1/ssdbench.1
	install -D -m 0644 share/ssdbench.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/ssdbench

clean:
	rm -rf build
