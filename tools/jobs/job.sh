#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# job: a CI job's command, as root in a fresh Debian 12 root: the packages
# make needs to start (git, make, CA certificates), then make TARGET...
# (make deps installs the rest). tools/jobs/docker-job.sh runs it in docker's
# debian:12 for ci.yml and daily.yml; make gh-local runs it in a
# debootstrap root, so that the job it rehearses is this very command.
#
# usage: job.sh TARGET|VAR=VALUE...
set -eu
[ $# -ge 1 ] || { echo "usage: job.sh TARGET|VAR=VALUE..." >&2; exit 2; }
apt-get update
apt-get install -y git make ca-certificates
exec make "$@"
