#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Set-up, build and run on a fresh Debian 12 machine, from the repository root:
#   scripts/debian12.sh experiment   installs what is missing, builds, runs the main experiment
#   scripts/debian12.sh test         installs what is missing, builds, runs every test, then
#                                    the unit tests and TestSuites with ASan and UBSan
#                                    (./build-sanitize) and each fuzz harness for 20 s
#                                    (./build-fuzz, clang)
# Run it as root or as a user with sudo: only the package installation needs root.
# It builds standalone against Debian's ns-3.37 (libns3-dev) into ./build.

set -eu

usage() {
    echo "usage: $0 experiment|test" >&2
    exit 2
}

[ $# -eq 1 ] || usage
mode=$1
case "$mode" in
experiment | test) ;;
*) usage ;;
esac

cd "$(dirname "$0")/.."

# libns3-dev's CMake package names files that other packages provide: the ns3 package (its
# helper binaries), libgsl-dev (libgsl.so), libxml2-dev (headers and libxml2.so),
# libsqlite3-dev (libsqlite3.so) and libpython3-dev (/usr/include/python3.11). The unit
# tests need GoogleTest; the flent writer Boost.Iostreams, the results store SQLite.
packages="cmake g++ make pkg-config libns3-dev ns3 libgsl-dev libxml2-dev libsqlite3-dev"
packages="$packages libpython3-dev libgtest-dev libboost-iostreams-dev"
# The test run also builds the manual and checks the flent files with the real flent; its
# fuzz harnesses need clang and its runtimes (libFuzzer, ASan, UBSan). g++'s sanitizer
# runtimes come with g++.
[ "$mode" = test ] && packages="$packages python3 python3-sphinx flent python3-matplotlib"
[ "$mode" = test ] && packages="$packages clang libclang-rt-14-dev"
# The sweep workflow's tests run Snakemake, locally and on a single-node Slurm cluster
# (slurm-wlm, munge) that they start and stop themselves, and read the sweep files with
# PyYAML.
[ "$mode" = test ] && packages="$packages snakemake slurm-wlm munge python3-yaml"

missing=""
for package in $packages; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $package"
    fi
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        as_root=""
    elif command -v sudo >/dev/null 2>&1; then
        as_root="sudo"
    else
        echo "error: packages missing ($missing) and neither root nor sudo" >&2
        exit 1
    fi
    echo "Installing:$missing"
    $as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
    # shellcheck disable=SC2086
    $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$jobs"

if [ "$mode" = experiment ]; then
    # The flent files and the SQLite database go to ./results.
    mkdir -p results
    cd results
    exec ../build/examples/gige-aqm-comparison
fi
# Here every tool is installed: a test that would skip for a missing tool fails instead.
(cd build && DEBLOAT_REQUIRE_TOOLS=1 ctest --output-on-failure -j "$jobs")

# The GoogleTest unit tests and the ns-3 TestSuites again, built with AddressSanitizer and
# UndefinedBehaviorSanitizer (the first finding fails the test; the tests carry their
# UBSAN_OPTIONS). The examples are not built. Leak detection stays on: the suites destroy
# what they create.
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDEBLOAT_SANITIZE=ON
cmake --build build-sanitize -j "$jobs" --target debloat-test-runner debloat-unit-tests
(cd build-sanitize &&
    ASAN_OPTIONS=strict_string_checks=1:detect_stack_use_after_return=1 \
        ctest --output-on-failure -j "$jobs" --timeout 600 -R '^(unit[.]|debloat-)')

# Each libFuzzer harness of test/fuzz, 20 s from its seeds (CTest tests fuzz.<name>).
CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDEBLOAT_FUZZ=ON
cmake --build build-fuzz -j "$jobs"
cd build-fuzz
exec ctest --output-on-failure -j "$jobs"
