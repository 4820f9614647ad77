# SPDX-License-Identifier: GPL-2.0
#
# The stages of the pipeline, one target each (STAGES below): deps, import,
# config, kernel, guest-tests, initramfs, boot, verdict, expect, grant-off.
# 'make ci' runs them in order; every stage skips work already done.

# A developer's own settings (docs/harness.md): not in git, read first so
# that the command line still wins.
-include local.mk

B := build
KSRC := $(B)/linux
KOBJ := $(B)/kernel
TESTS_O := $(B)/tests
CI_O := $(B)/ci
OVERLAY := kernel-overlay
FRAGMENT := ci/kernel.config

# KCONFIG=debug: the same pipeline on a kernel with KASAN, UBSAN, lockdep,
# DEBUG_ATOMIC_SLEEP and kmemleak (ci/debug.config), built and booted apart
# from the usual one, with a longer boot timeout for the slower guest.
KCONFIG ?=
ifeq ($(KCONFIG),debug)
KOBJ := $(B)/kernel-debug
TESTS_O := $(B)/tests-debug
CI_O := $(B)/ci-debug
FRAGMENT += ci/debug.config
export BOOT_TIMEOUT ?= 3600
export IDLE_TIMEOUT ?= 1800
else ifeq ($(KCONFIG),upstream)
# KCONFIG=upstream: the kernels of make upstream-selftests, with what the
# tree's selftests ask for (ci/upstream.config), built apart.
KOBJ := $(B)/kernel-upstream
TESTS_O := $(B)/tests-upstream
CI_O := $(B)/ci-upstream
FRAGMENT += ci/upstream.config
else ifneq ($(KCONFIG),)
$(error KCONFIG=$(KCONFIG): the other kernel configs are KCONFIG=debug and KCONFIG=upstream)
endif

# VERSION=<debian version>: import (and so ci, check) takes that
# linux-source-6.1 instead of the installed one, fetched with apt-get
# download under build/versions/ (tools/stages/linux-source.sh); make rebase
# moves the series onto it. Only from the command line, and not passed
# down as VERSION: kbuild's Makefile has a VERSION of its own (the
# kernel's 6) that the kernel's make would take from MAKEFLAGS. The
# scripts and sub-makes get it as LINUX_SOURCE_VERSION.
ifeq ($(origin VERSION),command line)
export LINUX_SOURCE_VERSION := $(VERSION)
endif
MAKEOVERRIDES := $(filter-out VERSION=%,$(MAKEOVERRIDES))

# STEPS=1 (tools/series/step.sh sets it): the worktree where bisect,
# series-check, mutate and bench check other commits out, built apart,
# so that the tip's tree and build stay as they are (tools/lib/lib.sh).
STEPS ?=
ifneq ($(STEPS),)
KSRC := $(B)/steps/linux
KOBJ := $(B)/steps/$(notdir $(KOBJ))
TESTS_O := $(B)/steps/$(notdir $(TESTS_O))
endif

BZIMAGE := $(KOBJ)/arch/x86/boot/bzImage
VMLINUX := $(KOBJ)/vmlinux
INITRAMFS := $(B)/$(if $(STEPS),steps/)initramfs$(if $(KCONFIG),-$(KCONFIG)).cpio
SERIAL_LOG := $(CI_O)/serial.log
VERDICT := $(B)/tools/verdict

# Extra kernel command line, e.g. KERNEL_ARGS=ci.test=smoke/lsm_sees_call
KERNEL_ARGS ?=
# How many times the guest runs the tests in one boot: they must pass again
# in a boot where they already ran (state they change is put back).
REPEAT ?= 2
# Whether KVM works here, as the first boot found out (see ci/boot.sh)
export ACCEL_CACHE ?= $(abspath $(B)/qemu-accel)

CCACHE := $(shell command -v ccache 2> /dev/null)
# A fixed timestamp and host keep compile.h stable, so ccache hits and an
# unchanged tree relinks nothing.
KMAKE_IN = $(MAKE) -C $(KSRC) O=$(1) ARCH=x86_64 \
	$(if $(CCACHE),CC="$(abspath tools/stages/ccache-gcc.sh)") \
	KBUILD_BUILD_TIMESTAMP=2023-01-01 KBUILD_BUILD_USER=ci \
	KBUILD_BUILD_HOST=ci -j$(shell nproc)
KMAKE := $(call KMAKE_IN,$(abspath $(KOBJ)))
# The caches that outlive a clone: ccache and the imported bases
# (tools/stages/import.sh), in the user's cache directory as ccache's own
# default is, so that a fresh clone on a machine that built before is
# warm. BPF_CI_CACHE=DIR moves both; CCACHE_DIR moves ccache alone.
ifeq ($(strip $(BPF_CI_CACHE)),)
override BPF_CI_CACHE := $(if $(XDG_CACHE_HOME),$(XDG_CACHE_HOME),$(if $(HOME),$(HOME)/.cache,$(abspath $(B))/cache))/bpf-lsm-ci
endif
override BPF_CI_CACHE := $(abspath $(BPF_CI_CACHE))
export BPF_CI_CACHE
export CCACHE_DIR ?= $(BPF_CI_CACHE)/ccache
# Trees built side by side share cache entries. Each is built in a sibling
# directory (build/linux in build/kernel, build/steps/linux in
# build/steps/kernel, build/base/linux in build/base/kernel), and ccache
# rewrites the absolute paths kbuild passes into the same relative ones
# (../linux/...), the dependency files too; the build directory itself is
# left out of the hash.
export CCACHE_BASEDIR := $(abspath $(B))
export CCACHE_NOHASHDIR := 1
# Depend mode: a miss hashes the compiler's own dependency file (kbuild
# passes -Wp,-MMD) instead of running the preprocessor a second time.
# -MMD leaves system headers out of that file, so they are not hashed:
# safe for the kernel's objects (-nostdinc), not for a program built
# with CC against libc's headers, which none of our builds does.
# An .incbin's file is not in that dependency file either: the kernel's
# compiler, tools/stages/ccache-gcc.sh, compiles a source with one without ccache.
# What a cold build through ccache costs: docs/measurements.md's kernel-cost block.
export CCACHE_DEPEND := 1

STAGES := deps import config kernel guest-tests initramfs boot verdict expect grant-off

# The unpatched kernel, for ci-base: 'base', from a worktree of its own
# (make kernel-base), built apart.
BASE_OBJ := $(B)/base/kernel$(if $(KCONFIG),-$(KCONFIG))
BASE_CI := $(CI_O)/base
BASE_SRC := $(B)/base/linux

.PHONY: help test run ci ci-base check $(STAGES) export clean clean-cache bisect series-check \
	range-diff bench bench-doc kernel-cost kernel-cost-doc mutate mutants-apply upstream-selftests upstream-doc selftests-build tree-test-progs fuzz gh-local check-faults check-kunit check-hardening shellcheck shell gdb kernel-base

# The variables come from docs/harness.md's table of them, which
# tests/doc-figures.sh holds to the code.
# make help's groups, by role; a target with a ## comment in none of them
# makes make help fail, so that none is left out.
HELP_GROUPS := \
	everyday:test,ci,check,run,shell,boot,verdict,ci-base,help \
	pipeline:deps,import,config,kernel,guest-tests,initramfs,expect,grant-off,export,clean,clean-cache \
	series:rebase,rebase-continue,rebase-abort,bisect,series-check,series-check-merge,range-diff,selftests-build,tree-test-progs,kernel-base,gdb \
	slow-jobs:mutate,mutate-merge,upstream-selftests,kernel-variants,versions,kernel-cost,fuzz \
	figures:bench,bench-doc,test-times,parity-table,design-table,upstream-doc,versions-doc,kernel-cost-doc \
	ci:check-faults,check-kunit,check-hardening,shellcheck,mutants-apply,gh-local

help: ## list the targets, by role, and the variables
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | \
		awk -F'\t' -v groups="$(HELP_GROUPS)" ' \
		{ what[$$1] = $$2; order[++n] = $$1 } \
		END { ng = split(groups, g, " "); \
			for (i = 1; i <= ng; i++) { split(g[i], kv, ":"); \
				printf "%s targets:\n", kv[1]; nt = split(kv[2], t, ","); \
				for (j = 1; j <= nt; j++) { if (!(t[j] in what)) { \
					print "help: " t[j] " has no ## comment" > "/dev/stderr"; bad = 1 } \
					printf "  %-20s%s\n", t[j], what[t[j]]; seen[t[j]] = 1 } } \
			for (i = 1; i <= n; i++) if (!(order[i] in seen)) { \
				print "help: target " order[i] " is in no group of HELP_GROUPS" > "/dev/stderr"; bad = 1 } \
			exit bad }'
	@echo "Variables (make TARGET NAME=VALUE; docs/harness.md says more):"
	@sed -n '/^## Variables$$/,/^## /p' docs/harness.md | tr -d '`' | \
		awk -F' [|] ' '/^[|] [A-Z]/ && NF == 3 { sub(/ [|]$$/, "", $$3); \
			printf "  %-30s %s; default: %s\n", substr($$1, 3), $$3, $$2 }'

# The inner loop: build/linux as it is, edits not committed yet included;
# nothing is imported or exported (make ci stays the overlay's gate).
# One run of the selection unless REPEAT is given.
test: ## build build/linux as it is (uncommitted edits too), boot once, judge; TEST=NAME[/SUBTEST]
	@[ -e $(KSRC)/.git ] || { echo "test: no $(KSRC): run make import first" >&2; exit 2; }
	@rm -f $(CI_O)/results.json
	$(MAKE) --no-print-directory kernel guest-tests initramfs
	@$(MAKE) --no-print-directory boot verdict \
		REPEAT=$(if $(filter command line environment,$(origin REPEAT)),$(REPEAT),1) \
		KERNEL_ARGS="$(strip $(KERNEL_ARGS) $(if $(TEST),ci.test=$(TEST)))" || { \
		echo "test: $$(python3 tools/lib/results.py line $(CI_O)/results.json 2> /dev/null || \
			echo FAIL: no verdict); log: $(SERIAL_LOG); rerun: make test$(if $(TEST), TEST=$(TEST))"; \
		exit 1; }
	@echo "test: PASS, $$(python3 tools/lib/results.py counts $(CI_O)/results.json); results in $(CI_O)/"

# The last line says how it ended: PASS with the counts and the time, or
# the stage that failed, why (the verdict's reason once there is one), its
# log and the command that runs it again.
ci: ## the whole pipeline: build the series' kernel, boot it, give a verdict
	@mkdir -p $(CI_O); : > $(CI_O)/times; rm -f $(CI_O)/results.json
	@t0=$$(date +%s); for s in $(STAGES); do \
		start=$$(date +%s); \
		[ -z "$$GITHUB_ACTIONS" ] || echo "::group::make $$s"; \
		$(MAKE) --no-print-directory $$s || { \
			[ -z "$$GITHUB_ACTIONS" ] || echo "::endgroup::"; \
			why=; case $$s in boot|verdict|expect) why=$$(python3 tools/lib/results.py \
				line $(CI_O)/results.json 2> /dev/null | sed -n 's/^FAIL: */: /p');; esac; \
			case $$s in boot) log=$(SERIAL_LOG);; verdict) log=$(CI_O)/summary;; \
			expect) log=$(CI_O)/results.json;; grant-off) log=$(GRANT_OFF_CI)/serial.log;; \
			*) log="its output above";; esac; \
			echo "ci: FAIL at stage $$s$$why; log: $$log; rerun: make $$s"; exit 1; }; \
		[ -z "$$GITHUB_ACTIONS" ] || echo "::endgroup::"; \
		echo "$$s $$(($$(date +%s) - start))" >> $(CI_O)/times; \
	done; \
	echo "ci: stage times (s):"; expand -t 12 < $(CI_O)/times | sed 's/^/  /'; \
	counts=$$(python3 tools/lib/results.py counts $(CI_O)/results.json); \
	echo "ci: PASS, $$counts, $$(($$(date +%s) - t0)) s; results in $(CI_O)/"

# make check runs as on a brand-new machine: none of the user's git
# configuration (no identity), an empty home, no locale, no sbin in PATH.
# Only the harness's own knobs pass through (the caches too: they are
# the user's, not the home's), and MAKEFLAGS, so that make -n check stays
# a dry run.
FRESH_HOME := $(abspath $(B)/home)
FRESH_ENV := env -i MAKEFLAGS="$(MAKEFLAGS)" \
	PATH=/usr/local/bin:/usr/bin:/bin HOME=$(FRESH_HOME) \
	GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 \
	$(foreach v,ACCEL BOOT_TIMEOUT IDLE_TIMEOUT KVM_PROBE CI GITHUB_ACTIONS LINUX_SOURCE_VERSION BPF_CI_CACHE CCACHE_DIR,$(if $($(v)),$(v)=$($(v))))

# series-check is not in check: it builds and boots a kernel for base and
# for every commit of the series; ci.yml runs it as a job of its own.
# The last line says how it ended: PASS and the time, or the step that
# failed and the command that reruns it.
# $(1): a make target, or a script (with a /), which reruns itself.
check_failed = { echo "check: FAIL at $(1); rerun: $(if $(findstring /,$(1)),$(1),make $(1))"; exit 1; }
check: deps ## harness tests, shellcheck, ci, check-hardening, mutants-apply, selftests-build, tree-test-progs, check-faults, ci-base, check-kunit, and a bisect of a broken copy
	rm -rf $(FRESH_HOME) && mkdir -p $(FRESH_HOME) && date +%s > $(FRESH_HOME)/check-start
	$(FRESH_ENV) tests/run.sh || $(call check_failed,tests/run.sh)
	$(FRESH_ENV) $(MAKE) --no-print-directory shellcheck || $(call check_failed,shellcheck)
	$(FRESH_ENV) $(MAKE) --no-print-directory ci || $(call check_failed,ci)
	$(FRESH_ENV) $(MAKE) --no-print-directory check-hardening || $(call check_failed,check-hardening)
	$(FRESH_ENV) $(MAKE) --no-print-directory mutants-apply || $(call check_failed,mutants-apply)
	$(FRESH_ENV) $(MAKE) --no-print-directory selftests-build || $(call check_failed,selftests-build)
	$(FRESH_ENV) $(MAKE) --no-print-directory tree-test-progs || $(call check_failed,tree-test-progs)
	$(FRESH_ENV) $(MAKE) --no-print-directory check-faults || $(call check_failed,check-faults)
	$(FRESH_ENV) $(MAKE) --no-print-directory ci-base || $(call check_failed,ci-base)
	$(FRESH_ENV) $(MAKE) --no-print-directory check-kunit || $(call check_failed,check-kunit)
	$(FRESH_ENV) tests/bisect-interrupted.sh || $(call check_failed,tests/bisect-interrupted.sh)
	$(FRESH_ENV) tests/bisect.sh || $(call check_failed,tests/bisect.sh)
	@echo "check: PASS, every step, $$(($$(date +%s) - $$(cat $(FRESH_HOME)/check-start))) s"

# bpf-grant and bpf-token-mount run as root and decide who gets BPF:
# check the flags they were built with in the binaries themselves.
check-hardening: guest-tests ## bpf-grant and bpf-token-mount: PIE, RELRO, BIND_NOW, stack protector, _FORTIFY_SOURCE, read from the binaries
	tools/stages/hardening.sh $(TESTS_O)/tools/bpf-grant bpf-grant.c grant_args.c
	tools/stages/hardening.sh $(TESTS_O)/tools/bpf-token-mount bpf-token-mount.c

check-faults: kernel initramfs $(VERDICT) ## drive the guest into each failure; the verdict must name it
	tests/faults.sh $(BZIMAGE) $(INITRAMFS) $(VERDICT) $(B)/faults

# Every shell script git knows: the .sh files (lib.sh, sourced, has no
# #! line) and every file whose #! line runs sh, dash, bash or busybox sh.
SCRIPTS = $(shell git ls-files -z | xargs -0 awk 'FNR == 1 { \
	if (/^\#!.*[\/ ](ba|da)?sh( |$$)/ || FILENAME ~ /\.sh$$/) print FILENAME; \
	nextfile }' 2> /dev/null)

shellcheck: ## every shell script git knows (git ls-files, by #! line), with .shellcheckrc; no findings allowed
	@command -v shellcheck > /dev/null || { echo \
		"shellcheck is missing; apt-get install shellcheck (or make deps)"; exit 1; }
	shellcheck -x $(SCRIPTS)

# The logs of ci, ci-base and check-faults' kmsg fault
KUNIT_LOGS = $(SERIAL_LOG) $(GRANT_OFF_CI)/serial.log $(BASE_CI)/serial.log \
	$(B)/faults/kmsg/serial.log

check-kunit: $(VERDICT) ## count the results of make check's logs with kunit.py parse too; they must agree
	tools/upstream/kunit-agree.sh $(KSRC) $(VERDICT) $(KUNIT_LOGS)

# base is built from a worktree of its own, so that building it changes no
# file of build/linux, and the next make ci recompiles nothing.
kernel-base: ## the kernel at 'base', from the worktree build/base/linux, in build/base/kernel
	tools/series/worktree.sh $(KSRC) base $(BASE_SRC)
	$(MAKE) --no-print-directory kernel KSRC=$(BASE_SRC) KOBJ=$(BASE_OBJ)

ci-base: initramfs kernel-base ## the same tests on the kernel at 'base': as ci/base.expect says
	$(MAKE) --no-print-directory boot verdict CI_O=$(BASE_CI) VMLINUX=$(BASE_OBJ)/vmlinux \
		BZIMAGE=$(BASE_OBJ)/arch/x86/boot/bzImage SERIAL_LOG=$(BASE_CI)/serial.log
	tools/stages/expect.sh $(BASE_CI)/results.json ci/base.expect

# docs/container.md's parity table of the container case (container_tools,
# issue 21), from the results of make ci and make ci-base: build/parity.md,
# the block between the document's parity-table markers, and the results it
# was made from, cut to container_tools, in tests/fixtures/parity/
# (tests/run.sh checks the block against them).
.PHONY: parity-table
parity-table: ## docs/container.md's parity table (container_tools) from make ci's and make ci-base's results
	tools/measure/parity-table.sh update $(CI_O) $(BASE_CI) $(B)/parity.md docs/container.md tests/fixtures/parity $(KSRC)

# Each subtest's time in the guest, from the last run's results (make
# ci, make test), the longest first
.PHONY: test-times
test-times: ## each subtest's seconds in the guest in the last make ci or make test, the longest first
	python3 tools/lib/results.py times $(CI_O)/results.json

# docs/series.md's table of what each design stops (issue 40), from the
# results of make ci: build/design.md, the block between the document's
# design-table markers, and the results it was made from, cut to the
# tests it names, in tests/fixtures/design/ (tests/run.sh checks the
# block against them).
.PHONY: design-table
design-table: ## docs/series.md's table of what the grant and the token each stop, from make ci's results
	tools/measure/design-table.sh update $(CI_O) $(B)/design.md docs/series.md tests/fixtures/design $(KSRC)

# The kernel tree's own selftests, from the tree's main branch, on the
# kernels at base and at the tip, both built with what the selftests ask
# for (KCONFIG=upstream: ci/upstream.config), apart from make ci's;
# results in build/upstream/{base,tip}/, the tree's test_progs built
# against the tip's vmlinux in build/upstream/tree-test-progs.
UPSTREAM_O := $(B)/upstream

upstream-selftests: $(VERDICT) ## the tree's own BPF selftests (test_verifier, test_maps, all of test_progs) on base and on the tip, side by side
	$(MAKE) --no-print-directory kernel kernel-base KCONFIG=upstream
	tools/upstream/upstream-selftests.sh $(KSRC) main $(B)/kernel-upstream $(BASE_SRC) \
		$(B)/base/kernel-upstream $(UPSTREAM_O) $(UPSTREAM_O)/tree-test-progs

# docs/measurements.md's block of figures comes from the run that tests/fixtures/
# upstream-run keeps, which tests/upstream-results.sh checks it against.
upstream-doc: ## docs/measurements.md's upstream-selftests figures, from build/upstream (after make upstream-selftests)
	python3 tools/upstream/upstream_results.py doc update $(UPSTREAM_O) tests/fixtures/upstream-run docs/measurements.md

selftests-build: guest-tests ## the series' selftests compiled against the tree's own test_progs.h, at every commit
	tools/upstream/selftests-build.sh $(KSRC) $(TESTS_O) $(B)/selftests

# The series' selftests as a bpf maintainer runs them: the tree's own
# test_progs, built by its selftests Makefile at main, on the tip.
TREE_TP_O := $(B)/tree-test-progs

tree-test-progs: kernel $(VERDICT) ## the series' selftests run by the tree's own test_progs (built with its Makefile) on the tip
	tools/upstream/tree-test-progs.sh $(KSRC) main $(VMLINUX) $(TREE_TP_O)
	$(MAKE) --no-print-directory boot verdict CI_O=$(TREE_TP_O)/ci REPEAT=1 \
		INITRAMFS=$(TREE_TP_O)/initramfs.cpio SERIAL_LOG=$(TREE_TP_O)/ci/serial.log

deps: ## install (as root) or name the Debian packages needed; fetch Debian 13's tools for the guest
	tools/stages/deps.sh
	tools/stages/debian13-root.sh $(B)/debian13

import: ## unpack linux-source-6.1 into build/linux, tag base, git am the overlay
	tools/stages/import.sh $(KSRC) $(OVERLAY)

export: ## write build/linux's commits after base back into kernel-overlay/
	tools/stages/export.sh $(KSRC) $(OVERLAY)

# Following Debian's kernel (issue 22). make rebase runs make ci on the
# rebased series; REBASE_CI=0 stops after the rebase and the export.
REBASE_CI ?=
.PHONY: rebase rebase-continue rebase-abort versions versions-doc

rebase: ## VERSION=<debian version>: the series onto that linux-source-6.1 (git am -3), pinned and exported, then make ci
	tools/series/rebase.sh start $(KSRC) $(OVERLAY) "$(VERSION)"
	$(if $(filter 0,$(REBASE_CI)),,$(MAKE) --no-print-directory ci)

rebase-continue: ## after resolving what stopped make rebase: git am --continue, pin, export, make ci
	tools/series/rebase.sh continue $(KSRC) $(OVERLAY)
	$(if $(filter 0,$(REBASE_CI)),,LINUX_SOURCE_VERSION=$$(cat $(OVERLAY)/base-version) \
		$(MAKE) --no-print-directory ci)

rebase-abort: ## give up a make rebase that stopped: the tree back as it was, the overlay untouched
	tools/series/rebase.sh abort $(KSRC) $(OVERLAY)

# Each stage alone: APPLY_ONLY=1 (applies), VERSIONS_STAGES="builds" ...;
# VERSIONS="v1 v2" limits the versions. Not part of check: one kernel
# build and two boots per version.
versions: ## [APPLY_ONLY=1] [VERSIONS=...] [VERSIONS_STAGES=...]: per linux-source-6.1 the apt sources offer: applies, builds, ci verdict; build/versions/versions.{tsv,md}
	tools/measure/versions.sh $(OVERLAY) $(B)/versions

# docs/versions.md's table of versions comes from the run tests/fixtures/
# versions-run keeps, which tests/versions-doc.sh checks it against.
versions-doc: ## docs/versions.md's table of versions, from build/versions (after make versions)
	python3 tools/measure/versions_doc.py update $(B)/versions tests/fixtures/versions-run docs/versions.md

config: $(KOBJ)/.config ## merge ci/kernel.config onto tinyconfig and check it

$(KOBJ)/.config: $(FRAGMENT) tools/stages/config.sh
	tools/stages/config.sh $(KSRC) $(KOBJ) $(FRAGMENT)

kernel: config ## build bzImage out of tree, in build/kernel
	+$(KMAKE) bzImage

# Configs the series must still build under, each ci/kernel.config with a
# fragment of ci/variants/: code under #ifdef that make ci's kernel never
# compiles. Built, not booted, with warnings as errors (an unused static
# function is what an #ifdef slip leaves); in the daily workflow.
VARIANTS := $(basename $(notdir $(wildcard ci/variants/*.config)))
.PHONY: kernel-variants
kernel-variants: ## build vmlinux under each config of ci/variants/ (not booted), in build/variants/NAME
	+@failed=; for v in $(VARIANTS); do \
		o=$(abspath $(B))/variants/$$v; \
		if tools/stages/config.sh $(KSRC) $$o ci/kernel.config ci/variants/$$v.config && \
		   $(call KMAKE_IN,$$o) KCFLAGS=-Werror vmlinux > $$o/build.log 2>&1; then \
			echo "kernel-variants: $$v builds"; \
		else \
			grep -E 'error|undefined reference' $$o/build.log 2> /dev/null | head -20; \
			echo "kernel-variants: $$v (ci/variants/$$v.config) does not build; its log: $$o/build.log" >&2; \
			failed="$$failed $$v"; \
		fi; \
	done; \
	[ -z "$$failed" ] || { echo "kernel-variants: failed:$$failed" >&2; exit 1; }

# guest-tests, not tests: tests/ holds the harness's own tests.
guest-tests: ## build the guest's test binaries against the kernel's vmlinux.h
	+$(MAKE) --no-print-directory -f initramfs/Makefile guest-tests \
		O=$(abspath $(TESTS_O)) KSRC=$(abspath $(KSRC)) \
		VMLINUX=$(abspath $(VMLINUX))

initramfs: guest-tests ## pack busybox, the guest tests, the tools and the init into build/initramfs.cpio
	+$(MAKE) --no-print-directory -f initramfs/Makefile initramfs \
		O=$(abspath $(TESTS_O)) KSRC=$(abspath $(KSRC)) \
		VMLINUX=$(abspath $(VMLINUX)) INITRAMFS=$(abspath $(INITRAMFS)) \
		DEBIAN13=$(abspath $(B)/debian13)

boot: ## boot the kernel in QEMU; serial console in build/ci/serial.log
	@mkdir -p $(CI_O)
	ci/boot.sh $(BZIMAGE) $(INITRAMFS) $(SERIAL_LOG) ci.repeat=$(REPEAT) $(KERNEL_ARGS)

run: kernel initramfs ## boot, run CMD='...' as root in the guest, print its output, exit with its status
	tools/stages/run.sh $(BZIMAGE) $(INITRAMFS) $(CI_O)/run/serial.log "$$CMD" $(KERNEL_ARGS)

shell: kernel initramfs ## an interactive shell in the guest (tests, bpftool, bpf-grant); exit powers it off
	ci/boot.sh $(BZIMAGE) $(INITRAMFS) - ci.shell $(KERNEL_ARGS)

# QEMU's gdb stub (-s: tcp::1234), the guest stopped before its first
# instruction (-S); nokaslr so that vmlinux's addresses hold.
gdb: kernel initramfs ## like shell, stopped at the start for gdb; prints the command that attaches
	$(KMAKE) scripts_gdb > /dev/null
	@echo "gdb: in another terminal: gdb -iex 'add-auto-load-safe-path $(abspath $(KOBJ))' -ex 'target remote :1234' $(abspath $(VMLINUX))"
	QEMU_EXTRA="-s -S" ci/boot.sh $(BZIMAGE) $(INITRAMFS) - nokaslr ci.shell $(KERNEL_ARGS)

# make ci's second boot: grants locked off from the kernel command line,
# running the one subtest that needs that, which must pass
# (ci/grant-off.expect).
GRANT_OFF_CI = $(CI_O)/grant-off

grant-off: ## boot again with kernel.lsm_grant_disabled=1 locked: the off switch
	$(MAKE) --no-print-directory boot verdict CI_O=$(GRANT_OFF_CI) \
		SERIAL_LOG=$(GRANT_OFF_CI)/serial.log \
		KERNEL_ARGS="sysctl.kernel.lsm_grant_disabled=1 ci.test=lsm_map_create/grant_off_switch_locked"
	tools/stages/expect.sh $(GRANT_OFF_CI)/results.json ci/grant-off.expect

# On the tip every subtest runs and passes: a kernel that lost a hook
# must not go green by skipping the tests that need it.
expect: ## check build/ci's results against ci/tip.expect (no skips)
	tools/stages/expect.sh $(CI_O)/results.json ci/tip.expect

$(VERDICT): ci/verdict.c ci/splats.c ci/splats.h
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Werror -o $@ $(filter %.c,$^)

# A run failed by a kernel report (results.json's cause: docs/contracts.md)
# gets its trace decoded (tools/stages/decode.sh).
verdict: $(VERDICT) ## parse the serial log: summary, KTAP, JUnit and JSON in build/ci/; decode a kernel report's trace
	@mkdir -p $(CI_O)
	@status=0; $(VERDICT) --splats ci/splats --ktap $(CI_O)/results.ktap \
		--junit $(CI_O)/results.xml --json $(CI_O)/results.json \
		$(SERIAL_LOG) > $(CI_O)/summary || status=$$?; \
	ci/summary.sh $(CI_O)/summary; \
	if [ "$$(python3 tools/lib/results.py cause $(CI_O)/results.json)" = kernel-report ]; then \
		tools/stages/decode.sh $(KSRC) $(VMLINUX) $(SERIAL_LOG) $(CI_O)/decoded.log || true; \
	fi; \
	exit $$status

bisect: ## GOOD=<rev|patch> BAD=<rev|patch> [TEST=<test>[/<subtest>]] [TRIES=N]: the first bad commit (TEST unset: the whole suite)
	tools/series/bisect.sh $(KSRC) $(OVERLAY) "$(GOOD)" "$(BAD)" "$(TEST)"

# SHARD=i/N: mutate and series-check run only shard i of N's share
# (tools/series/shards.py), into build/mutate-shards/i-of-N/ and
# build/series-check-shards/i-of-N/; mutate-merge and series-check-merge
# then make, from every shard's directory, the table and score one run
# makes. LIST_ONLY=1: the mutants or commits a run (or shard) takes, and
# nothing built. RESUME=1: series-check keeps each commit's passing
# result from an earlier run or shard here, and runs the others.
SHARD ?=
LIST_ONLY ?=
RESUME ?=
SERIES_O := $(B)/series-check$(if $(KCONFIG),-$(KCONFIG))
.PHONY: series-check-merge mutate-merge

series-check: ## [SHARD=i/N] [LIST_ONLY=1] [RESUME=1] build, checkpatch and test every commit from base to the tip
	SHARD="$(SHARD)" LIST_ONLY="$(LIST_ONLY)" RESUME="$(RESUME)" tools/series/series-check.sh $(KSRC)

# Each merge replaces the run directory it writes, and only when there are
# shards to merge.
series-check-merge: ## series.json and the table in build/series-check/ from every shard of build/series-check-shards/
	@ls -d $(SERIES_O)-shards/*/ > /dev/null 2>&1 || { echo \
		"series-check-merge: no shard in $(SERIES_O)-shards/; make series-check SHARD=i/N first"; exit 1; }
	rm -rf $(SERIES_O) && mkdir -p $(SERIES_O)
	python3 tools/series/shards.py series-merge $(SERIES_O) $(SERIES_O)-shards/*/

bench: ## the hooks' cost (stock vs tip, -icount) and one bisect step, side by side
	tools/measure/bench.sh $(KSRC)

# docs/measurements.md's block of the harness's own figures comes from
# the run tests/fixtures/bench-run keeps, which tests/bench-report.sh
# checks it against.
bench-doc: ## docs/measurements.md's harness figures (the inner loop, the suite's boot), from build/bench (after make bench)
	python3 tools/measure/bench_report.py bench-doc update $(B)/bench tests/fixtures/bench-run docs/measurements.md

# Not part of bench: six kernel builds from scratch, about 25 minutes on
# 2 cores.
kernel-cost: ## what make ci's kernel costs to build from scratch, and each part of its config: build/kernel-cost/
	tools/measure/kernel-cost.sh $(KSRC) $(B)/kernel-cost ci/kernel.config

# docs/measurements.md's block comes from the run tests/fixtures/kernel-cost-run keeps,
# which tests/bench-report.sh checks it against.
kernel-cost-doc: ## docs/measurements.md's kernel build figures, from build/kernel-cost (after make kernel-cost)
	python3 tools/measure/bench_report.py kernel-cost-doc update $(B)/kernel-cost tests/fixtures/kernel-cost-run docs/measurements.md

# Not part of check: one build and boot per mutant (.github/workflows/daily.yml,
# in shards).
mutate: ## [MUTANTS=<prefixes>] [SHARD=i/N] [LIST_ONLY=1] the suite on each mutant of mutants/; the mutation score
	SHARD="$(SHARD)" LIST_ONLY="$(LIST_ONLY)" tools/series/mutate.sh $(KSRC) $(MUTANTS)

mutants-apply: ## every mutant of mutants/ has its header and applies to the tip (make check runs it)
	CHECK_ONLY=1 tools/series/mutate.sh $(KSRC)

mutate-merge: ## results.tsv, the table and the score in build/mutate/ from every shard of build/mutate-shards/
	@ls -d $(B)/mutate-shards/*/ > /dev/null 2>&1 || { echo \
		"mutate-merge: no shard in $(B)/mutate-shards/; make mutate SHARD=i/N first"; exit 1; }
	rm -rf $(B)/mutate && mkdir -p $(B)/mutate
	python3 tools/series/shards.py mutate-merge $(B)/mutate $(B)/mutate-shards/*/

# Not part of check: libFuzzer on the verdict parser, its findings in build/fuzz/.
FUZZ_SECONDS ?= 60
fuzz: ## [FUZZ_SECONDS=60] fuzz the verdict parser (libFuzzer, ASan, UBSan)
	FUZZ_SECONDS=$(FUZZ_SECONDS) ci/fuzz.sh $(B)/fuzz

# Not part of check: it runs make check itself, in a Debian 12 root.
gh-local: ## [WARM_CACHE=1] ci.yml's make check job as the runner runs it, in a fresh Debian 12 root (root; debootstrap)
	tools/jobs/gh-local.sh $(B)/gh-local

range-diff: ## OLD=<rev of this repository>: how the series changed since then
	tools/series/range-diff.sh $(KSRC) "$(OLD)"

clean: ## remove what the build made, keeping build/linux (your work) and the caches (clean-cache)
	find $(B) -mindepth 1 -maxdepth 1 ! -name linux ! -name cache ! -name ccache -exec rm -rf {} +

# Only what the harness put there: a CCACHE_DIR of your own is left alone
clean-cache: ## empty the caches that outlive a clone: ccache and the imported bases, in BPF_CI_CACHE
	@case "$(BPF_CI_CACHE)" in /?*) ;; *) echo "clean-cache: BPF_CI_CACHE '$(BPF_CI_CACHE)' is not a directory to empty; give it a path" >&2; exit 2 ;; esac
	rm -rf -- "$(BPF_CI_CACHE)/base" $(if $(filter $(BPF_CI_CACHE)/ccache,$(CCACHE_DIR)),"$(CCACHE_DIR)")
