# libFuzzer harnesses of every public loader (test/fuzz/README.md), built with
# Debian's clang under AddressSanitizer + UndefinedBehaviorSanitizer into
# $(FUZZ_BUILD) (its own objects: the library is compiled again for them).
#
#   make fuzz                     every harness for FUZZ_SECONDS (60) each
#   make fuzz FUZZ_SECONDS=10     what CI runs (.ci/run)
#   make fuzz FUZZ=space          one harness
#   make fuzz-build               build only
#
# A finding (crash, sanitizer report, leak, timeout, out of memory) stops
# with a non-zero status and leaves the input in $(FUZZ_BUILD)/findings/.

FUZZ_CC ?= clang
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_NAMES := $(sort $(patsubst test/fuzz/fuzz_%.c,%,$(wildcard test/fuzz/fuzz_*.c)))
FUZZ ?= $(FUZZ_NAMES)
FUZZ_CFLAGS = -std=c11 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -fopenmp -fPIC -D_POSIX_C_SOURCE=200809L -DTRIM_BUILDING \
	-DTRIM_VERSION_MAJOR=$(VERSION_MAJOR) -DTRIM_VERSION_MINOR=$(VERSION_MINOR) \
	-DTRIM_VERSION_PATCH=$(VERSION_PATCH) -Wall -Wextra \
	-Iinclude -Ilib -I$(BUILD)/gen $(shell $(PKG_CONFIG) --cflags $(DEPS_PKGS) 2>/dev/null)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_BUILD)/obj/%.o)
# sources the main build generates (under $(BUILD)/gen) exist before any object
$(FUZZ_LIB_OBJ): | $(filter $(BUILD)/%,$(LIB_SRC))
$(FUZZ_BUILD)/obj/lib/util/model_digest.o: $(BUILD)/gen/model_digest.h
FUZZ_BINS := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz_%)

.PHONY: fuzz fuzz-build
$(FUZZ_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: test/fuzz/fuzz_%.c $(wildcard test/fuzz/*.c test/fuzz/*.h) $(FUZZ_LIB_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -Itest/fuzz -o $@ $< $(FUZZ_LIB_OBJ) $(LIBS)

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	@for n in $(FUZZ); do sh test/fuzz/run.sh $$n $(FUZZ_SECONDS) $(FUZZ_BUILD) || exit 1; done
	@echo "fuzz: $(words $(FUZZ)) harnesses, $(FUZZ_SECONDS) s each, no finding"

-include $(FUZZ_LIB_OBJ:.o=.d)
