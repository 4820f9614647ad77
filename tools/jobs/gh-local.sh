#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gh-local: ci.yml's make check job as GitHub Actions runs it, here: the
# checkout (a clone of HEAD: what is committed), the cache step (with
# WARM_CACHE=1, a copy of this machine's ccache (CCACHE_DIR) in the
# checkout's build/cache/ccache, as a restored cache; else none, as on a
# first push), the job's own command, tools/jobs/job.sh check (what
# ci.yml's tools/jobs/docker-job.sh check runs in docker's debian:12), in a
# fresh Debian 12 root (debootstrap --variant=minbase: root, /src, /dev
# as the host has it), then the summary step (tools/lib/results.py
# gh-summary on the two results.json files). The root is made once in
# DIR/debian12 and copied for each run, so that no run sees what an
# earlier one installed. Mounts live in a mount namespace of the run's own
# and end with it. Root only.
#
# DIR/run/src is the run's checkout, its logs under build/ as the
# workflow uploads them; DIR/summary.md is the job summary.
#
# usage: gh-local.sh DIR
set -eu
STAGE=gh-local
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

[ $# -eq 1 ] || die "usage: gh-local.sh DIR"
mkdir -p "$1"
dir=$(cd "$1" && pwd)

[ "$(id -u)" -eq 0 ] || die "run as root: debootstrap, mount and chroot need it"
command -v debootstrap > /dev/null ||
	die "debootstrap is missing; apt-get install debootstrap"
# The job's command, as tools/jobs/docker-job.sh runs it in the container
cmd="tools/jobs/job.sh check"

if [ ! -x "$dir/debian12/bin/sh" ]; then
	rm -rf "$dir/debian12" "$dir/debian12.tmp"
	note "making a Debian 12 root in $dir/debian12 (debootstrap, a few minutes)"
	debootstrap --variant=minbase bookworm "$dir/debian12.tmp" \
		http://deb.debian.org/debian > "$dir/debootstrap.log" 2>&1 ||
		die "debootstrap failed; see $dir/debootstrap.log"
	mv "$dir/debian12.tmp" "$dir/debian12"
fi

run=$dir/run
rm -rf "$run"
cp -a "$dir/debian12" "$run"
cp /etc/resolv.conf "$run/etc/resolv.conf"
# The apt sources of the debian:12 image: debootstrap writes only the
# release itself.
rm -f "$run/etc/apt/sources.list"
cat > "$run/etc/apt/sources.list.d/debian.sources" <<-EOF
	Types: deb
	URIs: http://deb.debian.org/debian
	Suites: bookworm bookworm-updates
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

	Types: deb
	URIs: http://deb.debian.org/debian-security
	Suites: bookworm-security
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
git clone -q "$top" "$run/src" || die "cannot clone $top"
if [ -n "${WARM_CACHE:-}" ]; then
	[ -d "${CCACHE_DIR:-}" ] || die "WARM_CACHE=1, but there is no ccache to restore (CCACHE_DIR '${CCACHE_DIR:-}'); run it as make gh-local"
	mkdir -p "$run/src/build/cache"
	cp -a "$CCACHE_DIR" "$run/src/build/cache/ccache"
fi

note "running the job's command in $run: $cmd"
start=$(date +%s)
status=0
# docker run's environment: root's PATH and HOME, and its -e variables
unshare --mount --propagation private sh -c '
	mount -t proc proc "$1/proc" && mount -t sysfs sysfs "$1/sys" &&
	mount --rbind /dev "$1/dev" &&
	exec chroot "$1" /usr/bin/env -i HOME=/root GITHUB_ACTIONS=true CI=true \
		BPF_CI_CACHE=/src/build/cache \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		sh -c "cd /src && $2"' sh "$run" "$cmd" > "$dir/job.log" 2>&1 || status=$?
note "the job's command exited $status after $(($(date +%s) - start)) s; log: $dir/job.log"

# The summary step, from the checkout, as the runner runs it
(cd "$run/src" && python3 tools/lib/results.py gh-summary "make ci" build/ci/results.json \
	"make ci-base" build/ci/base/results.json) > "$dir/summary.md" ||
	{ note "the summary step failed"; status=1; }
note "job summary: $dir/summary.md"
# What the summary reads, which the job must have written
for f in build/ci/results.json build/ci/base/results.json; do
	[ -f "$run/src/$f" ] || { note "the job wrote no $f"; status=1; }
done
exit $status
