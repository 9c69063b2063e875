#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Checks (or, with --fix, applies) clang-format 20 with ns-3's .clang-format on every C++
# file. clang-format 20 comes from npm (package.json pins it): run "npm ci" once.
set -eu
cd "$(dirname "$0")/.."
formatter=node_modules/.bin/clang-format
if [ ! -x "$formatter" ]; then
    echo "error: $formatter not found; run 'npm ci' first" >&2
    exit 2
fi
status=0
for file in $(git ls-files '*.cc' '*.h'); do
    if [ "${1:-}" = --fix ]; then
        "$formatter" --style=file -i "$file"
    elif ! "$formatter" --style=file "$file" | cmp -s - "$file"; then
        echo "needs formatting: $file"
        status=1
    fi
done
exit $status
