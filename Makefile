# SPDX-License-Identifier: GPL-2.0-only
#
# memtier: every entry point.  `make help` lists them.
#
# The kernel tree (Debian's linux-source-6.12) and every build directory
# live in MEMTIER_CACHE, outside the checkout, and are reused between runs.

REPO		:= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
MEMTIER_CACHE	?= $(HOME)/.cache/memtier
# Every tree is called linux-6.12 and sits beside its build directories,
# and ccache takes paths relative to MEMTIER_CACHE: so an object built
# once is a cache hit in every other tree and build directory whose
# preprocessed source is the same.
E2E_KSRC	?= $(MEMTIER_CACHE)/e2e/linux-6.12
E2E_BUILD	?= $(MEMTIER_CACHE)/e2e/build-e2e
# make kunit runs in the patched tree, on the e2e kernel's configuration
# plus .kunitconfig: a few options apart, so a KUnit build directory
# that does not exist yet starts as a copy of the e2e kernel's.
KSRC		?= $(E2E_KSRC)
KUNIT_BUILD	?= $(MEMTIER_CACHE)/e2e/build-kunit
KUNIT_N6_BUILD	?= $(MEMTIER_CACHE)/e2e/build-kunit-n6
NONUMA_BUILD	?= $(MEMTIER_CACHE)/e2e/build-nonuma
SERIES_KSRC	?= $(MEMTIER_CACHE)/series/linux-6.12
# The sanitizer kernel (KASAN, UBSAN, lockdep) of machine s, from the e2e
# tree; the mutation runs' own KUnit tree, whose library is a scratch copy.
SAN_BUILD	?= $(MEMTIER_CACHE)/e2e/build-san
# Stock 6.12, untouched, for make compare: built from the e2e
# configuration, sharing its ccache results.
STOCK_KSRC	?= $(MEMTIER_CACHE)/stock/linux-6.12
STOCK_BUILD	?= $(MEMTIER_CACHE)/stock/build-stock
STOCK_BZIMAGE	:= $(STOCK_BUILD)/arch/x86/boot/bzImage
# patches-check builds pristine 6.12 with the e2e configuration first and
# keeps a copy of it here: stock 6.12 for make compare-fast.
SERIES_STOCK_BZIMAGE := $(MEMTIER_CACHE)/series/stock-bzImage
COMPARE_REPS	?= 5
OUT		?= $(REPO)/out
E2E_MACHINES	?= a b c d k n
BZIMAGE		:= $(E2E_BUILD)/arch/x86/boot/bzImage
INITRAMFS	:= $(OUT)/e2e-initramfs.cpio
SAN_BZIMAGE	:= $(SAN_BUILD)/arch/x86/boot/bzImage
SAN_INITRAMFS	:= $(OUT)/sanitizers-initramfs.cpio
# One job more than CPUs: a kernel build's serial moments (fixdep,
# objtool, waiting on the disk) leave a CPU idle at -j$(nproc).
JOBS		?= $(shell echo $$(($$(nproc) + 1)))
KUNIT_TIMEOUT	?= 900

export CCACHE_DIR ?= $(MEMTIER_CACHE)/ccache
export CCACHE_BASEDIR ?= $(MEMTIER_CACHE)
# ccache's depend mode: a miss costs the compile and little more (2%
# more CPU on mm/, kernel/ and fs/), where the default mode first runs
# the preprocessor to hash its output (44% more).  What one build here
# finds from another is always the same source under the same
# configuration, which depend mode finds without the preprocessor; it
# never finds the same preprocessed output under another configuration.
export CCACHE_DEPEND ?= 1
export JOBS

# Single quotes only: the command is printed for pasting as it is, and
# run through the shell by the scripts.
# The KUnit kernel is .kunitconfig on the e2e configuration (see
# KUNIT_SEED below), at distributions' node count (NODES_SHIFT=10).
KUNIT_RUN = ./tools/testing/kunit/kunit.py run --arch=x86_64 \
	--kunitconfig=$(REPO)/.kunitconfig \
	--jobs=$(JOBS) --timeout=$(KUNIT_TIMEOUT) \
	--make_options 'CC=ccache gcc'
# The benchmark's full sweep is marked slow: make kunit skips it and
# runs the benchmark's short cases.
KUNIT_FILTER = --filter 'speed>slow' --filter_action=skip
KUNIT_CMD = $(KUNIT_RUN) --build_dir=$(KUNIT_BUILD) $(KUNIT_FILTER)
# kunit.py keeps a .config that covers what it asks for: make kunit
# seeds the build directory with one on the e2e kernel's allnoconfig
# base (scripts/kunit-seed-config.sh), the pasted command then reuses it.
KUNIT_CONFIG = ./tools/testing/kunit/kunit.py config --arch=x86_64 \
	--kunitconfig=$(REPO)/.kunitconfig --make_options 'CC=ccache gcc'
KUNIT_SEED = $(REPO)/scripts/kunit-seed-config.sh $(KSRC) \
	$(REPO)/kernel-integration/e2e.config
# make kunit runs at distributions' node count (NODES_SHIFT=10); these
# are the same suites at x86_64's default of 64 nodes.
KUNIT_N6_CMD = $(KUNIT_RUN) --build_dir=$(KUNIT_N6_BUILD) \
	--kconfig_add CONFIG_NODES_SHIFT=6 \
	--kconfig_add CONFIG_MEMTIER_GCOV=n $(KUNIT_FILTER)
BENCH_CMD = $(KUNIT_RUN) --build_dir=$(KUNIT_BUILD) memtier_bench

.PHONY: help deps tree kunit kunit-n6 e2e-tree kernel nonuma initramfs \
	e2e san-kernel sanitizers mutants run lint coverage patches patches-check bench \
	stock-kernel compare compare-fast seed-experiment microbench test

help:
	@echo "make kunit   build the KUnit kernel and run every memtier_ suite in QEMU"
	@echo "make kunit-n6  the same suites with NODES_SHIFT=6 (64 nodes)"
	@echo "make nonuma  build the patched kernel with NUMA=n"
	@echo "make kernel  build 6.12 with kernel-integration/patches, print its bzImage"
	@echo "make e2e     boot that kernel on machines $(E2E_MACHINES) and run the guest checks"
	@echo "make sanitizers  the KUnit suites and a stress run in a KASAN, UBSAN, lockdep kernel"
	@echo "make mutants  mutation testing: which single-edit bugs in src/ the suites miss"
	@echo "make run     the main job: the three-tier machine, tiers, targets, a hot/cold workload"
	@echo "make lint    checkpatch --strict, kernel-doc, W=1 and sparse"
	@echo "make coverage  gcov of src/ under the KUnit suites: HTML and lcov in out/coverage"
	@echo "make patches   the upstream series with a cover letter, in out/patches"
	@echo "make patches-check  build every step of that series; KUnit on the library patch"
	@echo "make compare  stock 6.12 and the patched kernel on one machine, side by side"
	@echo "make compare-fast  the same, one boot each, stock 6.12 from patches-check"
	@echo "make seed-experiment  seed 001's pmbench run booted: each kernel and policy, rate limit binding or not"
	@echo "make microbench  the promotion decision's instructions per hint fault, against 6.12's"
	@echo "make bench   the promotion benchmark (suite memtier_bench): tables, plot in out/bench"
	@echo "make test    everything CI runs (the README's test command)"
	@echo "Cache: MEMTIER_CACHE=$(MEMTIER_CACHE)"

deps:
	@$(REPO)/scripts/install-deps.sh

tree: deps
	@$(REPO)/scripts/prepare-tree.sh $(REPO) $(KSRC) series

# A first KUnit build starts from the e2e kernel's build directory:
# that kernel is built first, so that its objects, the configuration of
# every step of make patches-check, are the ones in ccache.
kunit: tree $(if $(wildcard $(KUNIT_BUILD)/.config),,kernel)
	$(info kunit: in $(KSRC) run by hand:)
	$(info $(KUNIT_CMD))
	$(shell mkdir -p $(OUT))
	$(file >$(OUT)/kunit-command.txt,$(KUNIT_CMD))
	@python3 $(REPO)/scripts/check-kunit-command.py $(OUT)/kunit-command.txt
	@$(REPO)/scripts/seed-build-dir.sh $(E2E_BUILD) $(KUNIT_BUILD)
	@$(KUNIT_SEED) $(KUNIT_BUILD) $(KUNIT_CONFIG) --build_dir=$(KUNIT_BUILD)
	@$(REPO)/scripts/timed.sh kunit $(REPO)/scripts/run-kunit.sh \
		$(KSRC) $(KUNIT_BUILD)/kunit.json $(KUNIT_CMD)

# Build matrix (c): the suites at 1024 possible nodes.
kunit-n6: tree
	@$(KUNIT_SEED) $(KUNIT_N6_BUILD) $(KUNIT_CONFIG) \
		--build_dir=$(KUNIT_N6_BUILD) --kconfig_add CONFIG_NODES_SHIFT=6 \
		--kconfig_add CONFIG_MEMTIER_GCOV=n
	@$(REPO)/scripts/timed.sh kunit-n6 $(REPO)/scripts/run-kunit.sh \
		$(KSRC) $(KUNIT_N6_BUILD)/kunit.json $(KUNIT_N6_CMD)

e2e-tree: deps
	@$(REPO)/scripts/prepare-tree.sh $(REPO) $(E2E_KSRC) series

kernel: e2e-tree
	@$(REPO)/scripts/timed.sh kernel $(REPO)/scripts/build-kernel.sh \
		$(E2E_KSRC) $(E2E_BUILD) \
		$(REPO)/kernel-integration/e2e.config:$(REPO)/kernel-integration/kunit-module.config \
		>$(E2E_BUILD).log 2>&1 || { tail -40 $(E2E_BUILD).log; exit 1; }
	@tail -1 $(E2E_BUILD).log
	@echo "kernel: $(BZIMAGE)"

initramfs: kernel
	@mkdir -p $(OUT)
	@$(REPO)/kernel-integration/e2e/mkinitramfs.sh $(INITRAMFS) \
		$(E2E_BUILD)/drivers/dax/kmem.ko \
		$(E2E_BUILD)/drivers/dax/dax_pmem.ko \
		$(E2E_BUILD)/mm/memtier/tests/memtier_kunit.ko

# Build matrix (b): the series with CONFIG_NUMA=n, where the library and
# its glue compile away.
nonuma: e2e-tree
	@$(REPO)/scripts/timed.sh nonuma $(REPO)/scripts/build-kernel.sh \
		$(E2E_KSRC) $(NONUMA_BUILD) \
		$(REPO)/kernel-integration/nonuma.config \
		>$(NONUMA_BUILD).log 2>&1 || { tail -40 $(NONUMA_BUILD).log; exit 1; }
	@tail -1 $(NONUMA_BUILD).log
	@! grep -q 'CC .*mm/memtier/' $(NONUMA_BUILD).log || \
		{ echo "nonuma: mm/memtier was built with NUMA off"; exit 1; }

# The sanitizer kernel, booted as machine s: the KUnit suites, then tier
# moves and memory hotplug under a workload; any report fails the run.
san-kernel: e2e-tree
	@$(REPO)/scripts/timed.sh sanitizers-kernel \
		$(REPO)/scripts/build-kernel.sh $(E2E_KSRC) $(SAN_BUILD) \
		$(REPO)/kernel-integration/sanitizers.config \
		>$(SAN_BUILD).log 2>&1 || { tail -40 $(SAN_BUILD).log; exit 1; }

# Machine s's boot may take SAN_TIMEOUT seconds: under KASAN and lockdep
# the stress's 1000 moves took 800 to 1000 s on Debian's 6.12.118 (about
# a second a move, three times what check.sh's comments expect), so the
# timeout leaves room beyond that; a hang is still reported by the hung
# task detector within 60 s.
SAN_TIMEOUT ?= 2400
sanitizers: san-kernel
	@mkdir -p $(OUT)
	@$(REPO)/kernel-integration/e2e/mkinitramfs.sh $(SAN_INITRAMFS) \
		$(SAN_BUILD)/mm/memtier/tests/memtier_kunit.ko \
		$(SAN_BUILD)/lib/test_ubsan.ko
	@E2E_LABEL=sanitizers E2E_TIMEOUT=$(SAN_TIMEOUT) \
		$(REPO)/scripts/timed.sh sanitizers \
		$(REPO)/kernel-integration/e2e/run-e2e.sh $(SAN_BZIMAGE) \
		$(SAN_INITRAMFS) $(OUT)/sanitizers check s

# Not in make test (see docs/mutants.rst for how long it takes).  Each
# mutant is the suites' module with the library compiled in, built
# against the sanitizer kernel and loaded in it (KASAN, UBSAN).
# MUTANTS_ARGS=--all runs every mutant, "--only KEY..." the named ones.
mutants: san-kernel
	@$(REPO)/scripts/timed.sh mutants python3 $(REPO)/scripts/mutants.py \
		run $(REPO) $(E2E_KSRC) $(SAN_BUILD) $(OUT)/mutants \
		$(MUTANTS_ARGS)

# Stock 6.12 for make compare, compare-fast and seed-experiment: the
# pristine kernel make patches-check built (the same tree and
# configuration as make stock-kernel's), or make stock-kernel's when
# patches-check has not run.  Sets $$stock in the recipe's shell.
PICK_STOCK = if [ -f $(SERIES_STOCK_BZIMAGE) ]; then \
		stock=$(SERIES_STOCK_BZIMAGE); \
	else \
		$(MAKE) --no-print-directory stock-kernel || exit 1; \
		stock=$(STOCK_BZIMAGE); \
	fi;

# Stock 6.12 and the patched kernel side by side (docs/compare.rst).
# Not in make test: about 2.5 min a boot (instruction counting), COMPARE_REPS
# boots each.
stock-kernel: deps
	@$(REPO)/scripts/prepare-tree.sh $(REPO) $(STOCK_KSRC) stock
	@mkdir -p $(OUT)/compare
	@$(REPO)/scripts/timed.sh stock-kernel $(REPO)/scripts/build-kernel.sh \
		$(STOCK_KSRC) $(STOCK_BUILD) $(REPO)/kernel-integration/e2e.config \
		>$(STOCK_BUILD).log 2>&1 || { tail -40 $(STOCK_BUILD).log; exit 1; }
	@tail -1 $(STOCK_BUILD).log

compare: kernel initramfs
	@$(PICK_STOCK) \
	$(REPO)/scripts/timed.sh compare $(REPO)/scripts/compare.sh $(REPO) \
		$$stock $(BZIMAGE) $(INITRAMFS) $(OUT)/compare \
		$(COMPARE_REPS)
	@/usr/bin/python3 $(REPO)/scripts/compare-report.py \
		-o $(OUT)/compare/compare.png $(OUT)/compare/results.txt | \
		tee $(OUT)/compare/report.txt

# Seed 001's pmbench experiment booted (docs/compare.rst, "The seed's
# experiment"): SEED_REPS boots of each kernel, alternating, each about
# 6 min (stock) and 12 min (patched) under instruction counting.  Not
# in make test.
SEED_REPS ?= 1
seed-experiment: kernel initramfs
	@$(PICK_STOCK) \
	COMPARE_MODE=seed COMPARE_TIMEOUT=2400 \
		$(REPO)/scripts/timed.sh seed-experiment $(REPO)/scripts/compare.sh \
		$(REPO) $$stock $(BZIMAGE) $(INITRAMFS) $(OUT)/seed $(SEED_REPS) || \
		exit 1; \
	/usr/bin/python3 $(REPO)/scripts/seed-report.py \
		$(OUT)/seed/results.txt | tee $(OUT)/seed/report.txt

# One boot of each, with short sweeps, in make test: it fails when a
# boot loses data or misses a metric.
compare-fast: kernel initramfs
	@$(PICK_STOCK) \
	COMPARE_APPEND="SWEEP_S=5 TH1_S=5" $(REPO)/scripts/timed.sh \
		compare-fast $(REPO)/scripts/compare.sh \
		$(REPO) $$stock $(BZIMAGE) $(INITRAMFS) $(OUT)/compare-fast 1 || \
		exit 1; \
	/usr/bin/python3 $(REPO)/scripts/compare-report.py \
		$(OUT)/compare-fast/results.txt >$(OUT)/compare-fast/report.txt; \
	rc=$$?; cat $(OUT)/compare-fast/report.txt; exit $$rc

e2e: kernel initramfs
	@$(REPO)/scripts/timed.sh e2e $(REPO)/kernel-integration/e2e/run-e2e.sh \
		$(BZIMAGE) $(INITRAMFS) $(OUT)/e2e check $(E2E_MACHINES)

run: kernel initramfs
	@$(REPO)/kernel-integration/e2e/run-e2e.sh \
		$(BZIMAGE) $(INITRAMFS) $(OUT)/run run c

# The decision's cost per hint fault against 6.12's, counted in
# instructions (scripts/microbench.sh): two boots of the e2e kernel.
MICROBENCH_BOOTS ?= 2
microbench: kernel initramfs
	@$(REPO)/scripts/timed.sh microbench $(REPO)/scripts/microbench.sh \
		$(REPO) $(BZIMAGE) $(INITRAMFS) $(OUT)/microbench \
		$(MICROBENCH_BOOTS)

lint: kunit
	@$(REPO)/scripts/timed.sh lint $(REPO)/scripts/lint.sh \
		$(REPO) $(KSRC) $(KUNIT_BUILD)

# Shares make kunit's build: .kunitconfig has gcov on mm/memtier only.
coverage: kunit
	@$(REPO)/scripts/timed.sh coverage $(REPO)/coverage/run-coverage.sh \
		$(REPO) $(KSRC) $(KUNIT_BUILD) $(OUT)/coverage

patches: e2e-tree
	@$(REPO)/scripts/make-patches.sh $(REPO) $(E2E_KSRC) $(OUT)/patches \
		$(SERIES_KSRC)

# The series' content, whoever runs it: make-patches in check mode signs
# with a check identity when the git identity is missing or a placeholder.
patches-check: e2e-tree
	@MEMTIER_SERIES_CHECK=1 $(REPO)/scripts/make-patches.sh $(REPO) \
		$(E2E_KSRC) $(OUT)/patches $(SERIES_KSRC)
	@$(REPO)/scripts/timed.sh patches-check $(REPO)/scripts/patches-check.sh \
		$(REPO) $(SERIES_KSRC) $(OUT)/patches $(SERIES_STOCK_BZIMAGE)

bench: tree
	@mkdir -p $(OUT)/bench
	@cd $(KSRC) && $(REPO)/scripts/timed.sh bench $(BENCH_CMD) \
		>$(OUT)/bench/kunit.log 2>&1 || { tail -30 $(OUT)/bench/kunit.log; exit 1; }
	@cp $(KUNIT_BUILD)/test.log $(OUT)/bench/console.log
	@python3 $(REPO)/scripts/bench-report.py -o $(OUT)/bench/bench.png \
		$(OUT)/bench/console.log | tee $(OUT)/bench/report.txt

# Every stage, timed, then nothing new untracked in the checkout; the
# last line sums the stages: "test: N passed, N failed".
# make kunit runs the suites at NODES_SHIFT=10, and make e2e (machine
# k) as a module of the e2e kernel; make kunit-n6 at 64 nodes, by hand.
TEST_STAGES = kunit coverage lint e2e sanitizers nonuma patches-check \
	microbench compare-fast
test: deps
	@$(REPO)/scripts/run-tests.sh $(REPO) $(OUT)/test $(TEST_STAGES)
