#!/usr/bin/env bash
# Fails, naming the files, when a tracked C++ source differs from what clang-format makes of it (.clang-format at
# the root). Fix with: git ls-files '*.cpp' '*.hpp' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "$0")/.."
unformatted=()
while IFS= read -r file; do
  clang-format --dry-run --Werror "$file" >/dev/null 2>&1 || unformatted+=("$file")
done < <(git ls-files '*.cpp' '*.hpp' 2>/dev/null || find sim models tests -name '*.cpp' -o -name '*.hpp')
if ((${#unformatted[@]})); then
  echo "not formatted with clang-format: ${unformatted[*]}"
  exit 1
fi
echo "all C++ sources formatted"
