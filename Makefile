# SPDX-License-Identifier: GPL-2.0
# copyprof: one Makefile; everything built goes to $(OUTPUT). V=1 shows full commands.

# make SANITIZE=1: copyprof with AddressSanitizer and UndefinedBehaviorSanitizer, the variant the
# fuzz targets are (clang, FUZZ_SAN below), into build-san/ (or OUTPUT); the dynamic link only
# (ASan has no static runtime). A CC given on the command line is kept.
SANITIZE  ?=
# The sanitizers of the fuzz targets (tests/cli/t0021) and of SANITIZE=1, one list.
SANITIZERS := -fsanitize=address,undefined -fno-sanitize=function
ifeq ($(SANITIZE),1)
OUTPUT    ?= build-san
ifeq ($(origin CC),default)
CC        := clang
endif
SAN_FLAGS := $(SANITIZERS) -fno-omit-frame-pointer
CFLAGS    ?= -O1 -g
endif
OUTPUT    ?= build
PREFIX    ?= /usr/local
CC        ?= gcc
CLANG     ?= clang
BPFTOOL   ?= bpftool
PROTOC_C  ?= protoc-c
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
VERSION   := $(shell cat VERSION)

# Two links of the same objects (docs/design.md#linking): build/copyprof, dynamically linked as
# Debian packages it, with the HTTP parts (agent: libmicrohttpd; estimate --prometheus:
# libcurl), and build/copyprof-static for the bare VM guest, without them.
STATIC    ?= -static
CFLAGS    ?= -O2 -g
LDFLAGS   ?=
# What the build needs whatever CFLAGS a user passes (make CFLAGS=-O0 keeps these).
REQUIRED_CFLAGS := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -std=gnu11 \
	     -D_GNU_SOURCE -MMD -MP -I$(OUTPUT) -Ibpf -Iuser -Iasm-ref -Iflamegraph \
	     -DCOPYPROF_VERSION='"$(VERSION)"' -DCOPYPROF_DATADIR='"$(PREFIX)/share/copyprof"'
ALL_CFLAGS = $(CFLAGS) $(SAN_FLAGS) $(REQUIRED_CFLAGS)
# The links take the same CFLAGS (and sanitizers) as the compiles, and LDFLAGS.
LINK_FLAGS = $(CFLAGS) $(SAN_FLAGS) $(LDFLAGS)
NET_LDLIBS := -lmicrohttpd -lgnutls -lcurl -lyaml -lcrypt -lpthread
LDLIBS    := -lprotobuf-c -lbpf -ljson-c -lcapstone -ldw -lelf -lbz2 -llzma -lzstd -lz -lm
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -I$(OUTPUT) -Ibpf

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

BPF_SRCS  := $(wildcard bpf/*.bpf.c)
SKELS     := $(patsubst bpf/%.bpf.c,$(OUTPUT)/%.skel.h,$(BPF_SRCS))
USER_SRCS := $(wildcard user/*.c user/*/*.c)
ASM_SRCS  := $(wildcard asm-ref/*.S) $(wildcard asm-ref/*.c)
LIB_OBJS  := $(patsubst %.c,$(OUTPUT)/%.o,$(filter-out user/main.c,$(filter %.c,$(USER_SRCS) $(ASM_SRCS)))) \
	     $(patsubst %.S,$(OUTPUT)/%.o,$(filter %.S,$(ASM_SRCS)))
# The shipped presets are also built into the binary (scripts/embed-presets.sh).
LIB_OBJS  += $(OUTPUT)/presets_builtin.o
# The flame graph writer (flamegraph/*.c) and its script, built in (scripts/embed-fgjs.sh).
LIB_OBJS  += $(patsubst %.c,$(OUTPUT)/%.o,$(wildcard flamegraph/*.c)) $(OUTPUT)/fg_js.o
# pprof's messages (proto/pprof.proto) in C, generated with protoc-c into $(OUTPUT)/proto/.
PROTO_GEN := $(patsubst proto/%.proto,$(OUTPUT)/proto/%.pb-c.c,$(wildcard proto/*.proto))
LIB_OBJS  += $(PROTO_GEN:.c=.o)
# The HTTP parts (user/agent/, user/fleet/) and what stands in for them in the static link.
NET_ABSENT := $(patsubst %.c,$(OUTPUT)/%.o,$(wildcard user/*/*_absent.c))
NET_OBJS  := $(filter-out $(NET_ABSENT),$(patsubst %.c,$(OUTPUT)/%.o,$(wildcard user/agent/*.c user/fleet/*.c)))
LIB_OBJS  := $(filter-out $(NET_ABSENT),$(LIB_OBJS))
STATIC_OBJS := $(filter-out $(NET_OBJS),$(LIB_OBJS)) $(NET_ABSENT)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(OUTPUT)/tests/%,$(UNIT_SRCS))
WORKLOADS := $(patsubst tests/workload/%.c,$(OUTPUT)/tests/%,$(wildcard tests/workload/*.c))
FUZZERS   := $(patsubst tests/fuzz/%.c,$(OUTPUT)/tests/%,$(wildcard tests/fuzz/*.c))
# The parser fuzzers link the library built again with clang and the sanitizers, into its own
# folder and archive (only the objects a target needs are linked). fuzz_asmref needs asm-ref only.
FUZZ_LIB_SRCS := $(wildcard user/lib/*.c user/kernel/*.c user/sites/*.c user/profile/*.c \
		 user/import/*.c user/costmodel/*.c user/measure/calib_*.c user/measure/measure_*.c \
		 user/estimate/*.c flamegraph/*.c) \
		 asm-ref/cpu_features.c
FUZZ_OBJDIR   := $(OUTPUT)/fuzz-obj
FUZZ_LIB      := $(FUZZ_OBJDIR)/libcopyprof-fuzz.a
FUZZ_SAN      := $(SANITIZERS)
# The static link, which a sanitized build has not.
STATIC_BIN    := $(if $(filter 1,$(SANITIZE)),,$(OUTPUT)/copyprof-static)
FUZZ_CFLAGS    = -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
		 $(REQUIRED_CFLAGS) -Itests/fuzz
ASM_OBJS  := $(patsubst %.S,$(OUTPUT)/%.o,$(filter %.S,$(ASM_SRCS)))
ASM_CSRCS := $(filter %.c,$(ASM_SRCS))

.PHONY: all clean install man completion deps test check unit-test cli-test vmtest bench bench-calibrate bench-sample bench-scale bench-agent bench-glibc demo \
	format format-check check-layers golden
all: $(OUTPUT)/copyprof $(STATIC_BIN)

.PRECIOUS: $(OUTPUT)/%.bpf.o

$(OUTPUT)/vmlinux.h: | $(OUTPUT)
	$(call msg,GEN,$@)
	$(Q)$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp && mv $@.tmp $@

$(OUTPUT)/%.bpf.o: bpf/%.bpf.c $(OUTPUT)/vmlinux.h | $(OUTPUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -MMD -MP -c $< -o $@

$(OUTPUT)/%.skel.h: $(OUTPUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@.tmp && mv $@.tmp $@

# A skeleton is kept once generated (no rebuild of its users on the next make), and only the
# files that include one wait for the skeletons on a first build; the .d files know the rest.
.SECONDARY: $(SKELS) $(OUTPUT)/vmlinux.h
SKEL_USERS := $(patsubst %.c,$(OUTPUT)/%.o,$(shell grep -l '\.skel\.h"' $(USER_SRCS)))
$(SKEL_USERS): | $(SKELS)

$(OUTPUT)/%.o: %.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(OUTPUT)/presets_builtin.c: $(wildcard presets/*.preset) scripts/embed-presets.sh | $(OUTPUT)
	$(call msg,GEN,$@)
	$(Q)./scripts/embed-presets.sh $(wildcard presets/*.preset) > $@.tmp && mv $@.tmp $@

$(OUTPUT)/presets_builtin.o: $(OUTPUT)/presets_builtin.c
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(OUTPUT)/fg_js.c: flamegraph/fg.js scripts/embed-fgjs.sh | $(OUTPUT)
	$(call msg,GEN,$@)
	$(Q)./scripts/embed-fgjs.sh flamegraph/fg.js > $@.tmp && mv $@.tmp $@

$(OUTPUT)/fg_js.o: $(OUTPUT)/fg_js.c
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(OUTPUT)/proto/%.pb-c.c $(OUTPUT)/proto/%.pb-c.h: proto/%.proto
	$(call msg,PROTOC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(PROTOC_C) --c_out=$(@D) --proto_path=proto $<

$(OUTPUT)/proto/%.pb-c.o: $(OUTPUT)/proto/%.pb-c.c
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

.SECONDARY: $(PROTO_GEN)
# What includes a generated header waits for it on a first build (the .d files know it later).
$(OUTPUT)/user/export/pprof.o $(OUTPUT)/user/export/export_pprof.o $(OUTPUT)/user/export/mw_proto.o: \
	$(PROTO_GEN:.c=.h)

$(OUTPUT)/%.o: %.S
	$(call msg,AS,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(OUTPUT)/copyprof: $(OUTPUT)/user/main.o $(LIB_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LINK_FLAGS) $^ $(NET_LDLIBS) $(LDLIBS) -o $@

$(OUTPUT)/copyprof-static: $(OUTPUT)/user/main.o $(STATIC_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LINK_FLAGS) $(STATIC) $^ $(LDLIBS) -o $@

$(OUTPUT)/tests/test_%: tests/unit/test_%.c $(LIB_OBJS)
	$(call msg,CC-TEST,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(filter %.c %.o,$^) -lcmocka $(NET_LDLIBS) $(LDLIBS) -o $@

# libFuzzer targets: clang with the fuzzer and address sanitizer runtimes (libclang-rt-dev).
$(OUTPUT)/tests/fuzz_asmref: tests/fuzz/fuzz_asmref.c $(ASM_OBJS) $(ASM_CSRCS)
	$(call msg,FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O1 -fsanitize=fuzzer,address -Iasm-ref $(filter %.c %.o,$^) -o $@

# The parser fuzzers (tests/cli/t0021-fuzz-parsers.sh): address + undefined behaviour sanitizers,
# linked dynamically (the copyprof binary itself stays static).
$(FUZZ_OBJDIR)/%.o: %.c | $(SKELS)
	$(call msg,CC-FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_OBJDIR)/presets_builtin.o: $(OUTPUT)/presets_builtin.c
	$(call msg,CC-FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_LIB): $(patsubst %.c,$(FUZZ_OBJDIR)/%.o,$(FUZZ_LIB_SRCS)) $(FUZZ_OBJDIR)/presets_builtin.o
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(OUTPUT)/tests/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB) tests/fuzz/fuzz_file.h
	$(call msg,FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_LIB) \
		$(LDLIBS) -o $@

# The agent's web.config.yml parser: its own object and lib/log.c (p_err), libyaml and libcrypt;
# none of the HTTP parts.
$(OUTPUT)/tests/fuzz_webconfig: tests/fuzz/fuzz_webconfig.c $(FUZZ_OBJDIR)/user/agent/web_config.o \
				$(FUZZ_LIB)
	$(call msg,FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_OBJDIR)/user/agent/web_config.o \
		$(FUZZ_LIB) -lyaml -lcrypt $(LDLIBS) -o $@

# diff's two profiles: the library, the command's printer (cmd_diff_print.c) and the asm-ref
# registry that estimate's options name today's code from.
FUZZ_DIFF_OBJS := $(FUZZ_OBJDIR)/user/cmd_diff_print.o $(patsubst %.c,$(FUZZ_OBJDIR)/%.o,$(ASM_CSRCS)) \
		  $(ASM_OBJS)
$(OUTPUT)/tests/fuzz_diff: tests/fuzz/fuzz_diff.c $(FUZZ_DIFF_OBJS) $(FUZZ_LIB) tests/fuzz/fuzz_file.h
	$(call msg,FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_DIFF_OBJS) $(FUZZ_LIB) $(LDLIBS) -o $@

# Benchmark programs in C link the library as the unit tests do (bench/*.c).
$(OUTPUT)/bench/%: bench/%.c $(LIB_OBJS)
	$(call msg,CC-BENCH,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(filter %.c %.o,$^) $(NET_LDLIBS) $(LDLIBS) -o $@

# The agent's request decisions alone, and its whole HTTP server (MHD, limits, auth) fed one
# connection per input: their objects, libmicrohttpd, gnutls, libcrypt.
FUZZ_AGENT_HTTP_OBJS := $(patsubst %,$(FUZZ_OBJDIR)/user/agent/%.o,agent_http agent_conns agent_peer \
			agent_auth agent_request web_config)
$(OUTPUT)/tests/fuzz_agent_request: tests/fuzz/fuzz_agent_request.c \
				    $(FUZZ_OBJDIR)/user/agent/agent_request.o
	$(call msg,FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(filter %.c %.o,$^) -o $@

$(OUTPUT)/tests/fuzz_agent_http: tests/fuzz/fuzz_agent_http.c $(FUZZ_AGENT_HTTP_OBJS) $(FUZZ_LIB)
	$(call msg,FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_AGENT_HTTP_OBJS) $(FUZZ_LIB) \
		$(NET_LDLIBS) $(LDLIBS) -o $@

# estimate --prometheus's reader of Prometheus's answers (the curl client is linked, not run).
FUZZ_FLEET_OBJS := $(patsubst %,$(FUZZ_OBJDIR)/user/fleet/%.o,fleet_profile fleet_series prom_answer \
		   prom_client fleet_native fleet_selector) \
		   $(FUZZ_OBJDIR)/user/export/om_bounds.o
$(OUTPUT)/tests/fuzz_prom_answer: tests/fuzz/fuzz_prom_answer.c $(FUZZ_FLEET_OBJS) $(FUZZ_LIB)
	$(call msg,FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_FLEET_OBJS) $(FUZZ_LIB) \
		$(NET_LDLIBS) $(LDLIBS) -o $@

# What a batch's process of calibrate --mix reads, and what comes back from it: the wire, the
# rounds it fills, the mix it draws from, and the asm-ref registry that names the replicas.
FUZZ_WIRE_OBJS := $(patsubst %,$(FUZZ_OBJDIR)/user/measure/%.o,paired_wire paired_run paired_stats \
		  replay_mix) $(patsubst %.c,$(FUZZ_OBJDIR)/%.o,$(ASM_CSRCS)) $(ASM_OBJS)
$(OUTPUT)/tests/fuzz_paired_wire: tests/fuzz/fuzz_paired_wire.c $(FUZZ_WIRE_OBJS) $(FUZZ_LIB)
	$(call msg,FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_WIRE_OBJS) $(FUZZ_LIB) $(LDLIBS) -o $@

# Workloads are ordinary dynamically linked PIE programs, as user code is.
# Workloads are ordinary dynamically linked PIE programs, as user code is; zeroread keeps frame
# pointers, so that the kernel's walk of its user stack finds its frames (record --user-stacks).
$(OUTPUT)/tests/zeroread: WL_CFLAGS := -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer
$(OUTPUT)/tests/%: tests/workload/%.c tests/workload/wl_common.h
	$(call msg,CC-WL,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -O2 -g -Wall -fPIE -pie $(WL_CFLAGS) $< -o $@

$(OUTPUT):
	$(Q)mkdir -p $@

# The man page: docs/copyprof.1.in with every command's options from its argp table.
man: $(OUTPUT)/copyprof.1

$(OUTPUT)/copyprof.1: $(OUTPUT)/copyprof docs/copyprof.1.in scripts/gen-man.sh scripts/argp-options.awk
	./scripts/gen-man.sh $(OUTPUT)/copyprof docs/copyprof.1.in > $@.tmp && mv $@.tmp $@

# bash completion, from the same argp tables (tests/cli/t0007 checks it).
completion: $(OUTPUT)/copyprof.bash

$(OUTPUT)/copyprof.bash: $(OUTPUT)/copyprof scripts/gen-completion.sh scripts/argp-options.awk
	./scripts/gen-completion.sh $(OUTPUT)/copyprof > $@.tmp && mv $@.tmp $@

install: $(OUTPUT)/copyprof $(OUTPUT)/copyprof-static $(OUTPUT)/copyprof.1 $(OUTPUT)/copyprof.bash
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/copyprof
	install -m 0755 $(OUTPUT)/copyprof $(DESTDIR)$(PREFIX)/bin/copyprof
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0644 $(OUTPUT)/copyprof.1 $(DESTDIR)$(PREFIX)/share/man/man1/copyprof.1
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 0644 $(OUTPUT)/copyprof.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/copyprof
	install -d $(DESTDIR)$(PREFIX)/share/copyprof/presets
	install -m 0644 presets/*.preset $(DESTDIR)$(PREFIX)/share/copyprof/presets/

deps:
	./scripts/deps.sh

test: check-layers format-check $(OUTPUT)/copyprof $(STATIC_BIN) $(UNIT_BINS) $(WORKLOADS) $(FUZZERS)
	./tests/run.sh $(OUTPUT)

# The layer rule, the format, unit and CLI tests, no VM: the quick check before a commit.
check: check-layers format-check $(OUTPUT)/copyprof $(STATIC_BIN) $(UNIT_BINS) $(WORKLOADS) $(FUZZERS)
	./tests/run.sh $(OUTPUT) unit cli

check-layers:
	./scripts/check-layers.sh

# The tree follows its own .clang-format (C files only; generated files live in $(OUTPUT)).
FORMAT_SRCS = $(shell git ls-files '*.c' '*.h' ':!:bpf/vmlinux.h')
format-check:
	$(call msg,FORMAT,check)
	$(Q)clang-format --dry-run --Werror $(FORMAT_SRCS)

format:
	$(Q)clang-format -i $(FORMAT_SRCS)

# Writes examples/*.txt and the example SVGs anew from this build (tests/cli/t0004 diffs them).
golden: $(OUTPUT)/copyprof
	./examples/estimate-fleet.sh $(OUTPUT) > examples/estimate-fleet.txt.tmp && \
		mv examples/estimate-fleet.txt.tmp examples/estimate-fleet.txt
	./examples/export-fleet.sh $(OUTPUT) > examples/export-fleet.txt.tmp && \
		mv examples/export-fleet.txt.tmp examples/export-fleet.txt
	./examples/flamegraph.sh $(OUTPUT) > examples/flamegraph.txt.tmp && \
		mv examples/flamegraph.txt.tmp examples/flamegraph.txt
	./examples/diff-regression.sh $(OUTPUT) > examples/diff-regression.txt.tmp && \
		mv examples/diff-regression.txt.tmp examples/diff-regression.txt
	./examples/glibc-threshold.sh $(OUTPUT) > examples/glibc-threshold.txt.tmp && \
		mv examples/glibc-threshold.txt.tmp examples/glibc-threshold.txt
	./tests/golden/summary-cases.sh $(OUTPUT)/copyprof > tests/golden/summary.txt.tmp && \
		mv tests/golden/summary.txt.tmp tests/golden/summary.txt

unit-test: $(UNIT_BINS)
	./tests/run.sh $(OUTPUT) unit

cli-test: $(OUTPUT)/copyprof $(WORKLOADS) $(FUZZERS)
	./tests/run.sh $(OUTPUT) cli

# The real-kernel tests alone: Debian 6.12 and 6.1 under qemu (tests/vm/run.sh).
vmtest: $(OUTPUT)/copyprof-static
	./tests/run.sh $(OUTPUT) vm

bench: $(OUTPUT)/copyprof $(WORKLOADS)
	./bench/uprobe_overhead.sh $(OUTPUT)
	./bench/startup.sh $(OUTPUT)

bench-calibrate: $(OUTPUT)/copyprof
	./bench/perfbench_compare.sh $(OUTPUT)

# The commands that read a whole profile, by number of sites: time and peak RSS (docs/benchmarks.md).
bench-scale: $(OUTPUT)/copyprof
	./bench/scale.sh $(OUTPUT)

# The glibc replicas against glibc's own implementations, per length class (docs/benchmarks.md).
bench-glibc: $(OUTPUT)/bench/glibc_replica
	./bench/glibc_replica.sh $(OUTPUT)

bench-sample: $(OUTPUT)/copyprof
	./bench/sample_overhead.sh $(OUTPUT)

# copyprof agent: series, scrape time and CPU by sites against node_exporter, a hot uprobe
# site, agent against record (docs/benchmarks.md, "copyprof agent at scale"). GUEST=6.12
# adds the btrfs preset's series counted in the Debian guest.
bench-agent: $(OUTPUT)/copyprof $(OUTPUT)/copyprof-static
	./bench/agent_scale.sh $(OUTPUT)

# The main job: record -p btrfs on a scratch zstd btrfs, calibrate, estimate (examples/main-job.sh).
demo: $(OUTPUT)/copyprof $(WORKLOADS)
	./examples/main-job.sh $(OUTPUT)

clean:
	rm -rf $(OUTPUT)

-include $(shell find $(OUTPUT) -name '*.d' 2>/dev/null)
