#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# docker-job: a GitHub Actions job's make TARGET... in Debian 12 (docker
# run debian:12, not a job container, so that /dev/kvm goes in only where
# the runner has it; ci/boot.sh falls back to TCG when KVM is missing or
# the guest does not answer under it), this checkout as /src, through
# tools/jobs/job.sh. ci.yml and daily.yml call it; make gh-local runs job.sh
# the same way in a chroot. GITHUB_ACTIONS, CI and MUTANTS (make mutate's
# choice, from the environment, never pasted into a command line) pass
# through. The caches that outlive a run (the Makefile's BPF_CI_CACHE)
# go in build/cache, where the workflows' cache step keeps them.
#
# usage: docker-job.sh TARGET|VAR=VALUE...
set -eu
[ $# -ge 1 ] || { echo "usage: docker-job.sh TARGET|VAR=VALUE..." >&2; exit 2; }
kvm=
[ ! -e /dev/kvm ] || kvm=--device=/dev/kvm
# shellcheck disable=SC2086 # $kvm: no option or one
exec docker run --rm $kvm -e GITHUB_ACTIONS -e CI -e MUTANTS \
	-e BPF_CI_CACHE=/src/build/cache -v "$PWD:/src" -w /src debian:12 tools/jobs/job.sh "$@"
