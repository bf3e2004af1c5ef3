#!/usr/bin/env bash
# Installs, idempotently, the Debian packages jet needs:
#   build:  gcc, clang, cmake, make, pkg-config
#   bench:  the peer engines and the corpus package
#   checks: valgrind, qemu-user + aarch64 cross compiler (CI only: --ci)
# Only missing packages are installed; nothing happens when all are present.
# Without root (or apt-get) it prints what is missing and exits 0, so that
# `make` still works with whatever is installed (missing peers are skipped).
set -u
want=(gcc g++ clang make cmake pkg-config
      libsimdjson-dev rapidjson-dev libcjson-dev libjansson-dev libjson-c-dev
      golang-github-valyala-fastjson-dev)
if [ "${1:-}" = "--ci" ]; then
  want+=(valgrind libclang-rt-14-dev qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
fi
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "deps.sh: missing packages (install them as root): ${missing[*]}" >&2
  exit 0
fi
echo "deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || true
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 || {
  # Fall back one by one so a single unavailable package does not block the rest.
  for p in "${missing[@]}"; do
    apt-get install -y -qq --no-install-recommends "$p" >/dev/null 2>&1 || echo "deps.sh: could not install $p" >&2
  done
}
exit 0
