# SPDX-License-Identifier: GPL-2.0-only
#
# memtier: every entry point.  `make help` lists them.
#
# The kernel tree (Debian's linux-source-6.12) and every build directory
# live in MEMTIER_CACHE, outside the checkout, and are reused between runs.

REPO		:= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
MEMTIER_CACHE	?= $(HOME)/.cache/memtier
KSRC		?= $(MEMTIER_CACHE)/linux-6.12
KUNIT_BUILD	?= $(MEMTIER_CACHE)/build-kunit
JOBS		?= $(shell nproc)
KUNIT_TIMEOUT	?= 900

export CCACHE_DIR ?= $(MEMTIER_CACHE)/ccache

KUNIT_CMD = ./tools/testing/kunit/kunit.py run --arch=x86_64 \
	--kunitconfig=$(REPO)/.kunitconfig --build_dir=$(KUNIT_BUILD) \
	--jobs=$(JOBS) --timeout=$(KUNIT_TIMEOUT) \
	--make_options CC="ccache gcc"

.PHONY: help deps tree kunit test

help:
	@echo "make kunit   build the KUnit kernel and run every memtier_ suite in QEMU"
	@echo "make test    everything CI runs (the README's test command)"
	@echo "Cache: MEMTIER_CACHE=$(MEMTIER_CACHE)"

deps:
	@$(REPO)/scripts/install-deps.sh

tree: deps
	@$(REPO)/scripts/prepare-tree.sh $(REPO) $(KSRC)

kunit: tree
	@echo "kunit: in $(KSRC) run by hand:"
	@echo "  $(KUNIT_CMD)"
	@$(REPO)/scripts/timed.sh kunit $(REPO)/scripts/run-kunit.sh \
		$(KSRC) $(KUNIT_BUILD)/kunit.json $(KUNIT_CMD)

test: kunit
