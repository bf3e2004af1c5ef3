#!/usr/bin/env bash
# Installs, idempotently, the Debian packages jet needs:
#   build:  gcc, g++, clang, cmake, make, pkg-config
#   bench:  the peer engines and the corpus package; jq and hyperfine
#           (bench/jq_compare.sh)
#   D:      ldc and dub, for the D binding (bindings/d)
#   checks (--ci only): valgrind, clang's runtimes (libFuzzer, sanitizers),
#           qemu-user and the aarch64, s390x (big-endian) and i686 (32-bit)
#           cross compilers (gcc-multilib would serve i386 too, but Debian
#           lets it not share a system with any cross gcc)
# Cheap when everything is there: one dpkg-query, no apt-get. Otherwise the
# missing packages are installed with apt-get (as root, or through sudo when
# it works without a password); the package lists are refreshed first only
# when they have never been fetched or when an install fails without it.
# When nothing can install, it names what is missing and exits 0, so that
# `make` still works with whatever is installed (missing peers are skipped).
# Exit status: non-zero only when an install was attempted and failed.
set -u
want=(gcc g++ clang make cmake pkg-config
      libsimdjson-dev rapidjson-dev libcjson-dev libjansson-dev libjson-c-dev
      golang-github-valyala-fastjson-dev
      jq hyperfine # bench/jq_compare.sh
      ldc dub)     # bindings/d
if [ "${1:-}" = "--ci" ]; then
  want+=(valgrind libclang-rt-dev qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross
         gcc-s390x-linux-gnu libc6-dev-s390x-cross gcc-i686-linux-gnu libc6-dev-i386-cross)
fi

have=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${want[@]}" 2>/dev/null |
       awk '$2 == "installed" { print $1 }')
missing=()
for p in "${want[@]}"; do
  printf '%s\n' "$have" | grep -qxF "$p" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

as_root=()
if ! command -v apt-get >/dev/null 2>&1; then
  echo "deps.sh: no apt-get; install these yourself: ${missing[*]}" >&2
  exit 0
elif [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
  else
    echo "deps.sh: not root and no password-less sudo; missing packages: ${missing[*]}" >&2
    exit 0
  fi
fi

echo "deps.sh: installing ${missing[*]}" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
run_apt() { "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -y -q "$@" >>"$log" 2>&1; }
apt_install() { run_apt install --no-install-recommends "$@"; }

# A fresh image usually has no package lists at all: fetch them before trying.
if ! compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; then
  run_apt update || true
fi
if ! apt_install "${missing[@]}"; then
  run_apt update || true
  if ! apt_install "${missing[@]}"; then
    # One by one, so that a single unavailable package does not block the rest.
    failed=("${missing[@]}")
    if [ ${#missing[@]} -gt 1 ]; then
      failed=()
      for p in "${missing[@]}"; do apt_install "$p" || failed+=("$p"); done
    fi
    if [ ${#failed[@]} -gt 0 ]; then
      echo "deps.sh: could not install: ${failed[*]}; apt-get said:" >&2
      tail -n 15 "$log" >&2
      exit 1
    fi
  fi
fi
exit 0
