#!/usr/bin/env python3
"""Function and file sizes in sim/ and models/: no function over 80 lines and no file over 400 lines, except
those listed in ALLOWED with the reason they read better whole. Functions are found on clang-formatted code: a
definition opens at column 0 (or at a class member's indentation) with a line ending in '{' and closes with a
'}' at the same indentation. Prints the offenders and exits 1, or prints the largest and the spread of files and
functions by length (how much headroom the caps have) and exits 0."""
import pathlib
import re
import sys

MAX_FUNCTION_LINES = 80
MAX_FILE_LINES = 400
# path -> why it reads better whole (functions: "path:name")
ALLOWED = {}

root = pathlib.Path(__file__).resolve().parent.parent
signature = re.compile(r"^(\s{0,2})[A-Za-z_][\w:<>,\s\*&~\[\]]*\([^;]*$")


def functions(lines):
    """(name, first line, length) of each function definition."""
    i = 0
    while i < len(lines):
        line = lines[i]
        match = signature.match(line)
        if match and not line.lstrip().startswith(("if ", "for ", "while ", "switch ", "return ", "namespace", "}")):
            indent = match.group(1)
            # the signature may continue over several lines up to the opening brace
            j = i
            while j < len(lines) and not lines[j].rstrip().endswith("{") and not lines[j].rstrip().endswith(";"):
                j += 1
            if j < len(lines) and lines[j].rstrip().endswith("{") and "=" not in line.split("(")[0]:
                name = re.search(r"([\w:~]+)\s*\(", line)
                k = j + 1
                while k < len(lines) and not re.match("^" + indent + r"\}", lines[k]):
                    k += 1
                if name and k < len(lines):
                    yield name.group(1), i + 1, k - i + 1
                    i = k
        i += 1


def spread(values, edges):
    """How many values fall in each band between the edges, as 'lo-hi: n' (the sizes' spread, not only the cap)."""
    bands = []
    for lo, hi in zip(edges, edges[1:]):
        n = sum(1 for v in values if lo < v <= hi)
        bands.append(f"{lo + 1}-{hi}: {n}")
    return ", ".join(bands)


def main():
    failures = []
    sizes = []
    file_lengths = []
    for path in sorted(list((root / "sim").rglob("*.[ch]pp")) + list((root / "models").rglob("*.[ch]pp"))):
        rel = str(path.relative_to(root))
        lines = path.read_text().splitlines()
        file_lengths.append(len(lines))
        if len(lines) > MAX_FILE_LINES and rel not in ALLOWED:
            failures.append(f"{rel}: {len(lines)} lines (at most {MAX_FILE_LINES})")
        for name, first, length in functions(lines):
            sizes.append((length, f"{rel}:{first} {name}"))
            if length > MAX_FUNCTION_LINES and f"{rel}:{name}" not in ALLOWED:
                failures.append(f"{rel}:{first}: {name} is {length} lines (at most {MAX_FUNCTION_LINES})")
    for failure in failures:
        print("sizes:", failure)
    if failures:
        return 1
    sizes.sort(reverse=True)
    print("sizes respected; the longest functions:")
    for length, where in sizes[:5]:
        print(f"  {length:4d} {where}")
    print(f"files ({len(file_lengths)}) by lines:     " + spread(file_lengths, [0, 100, 200, 300, MAX_FILE_LINES]))
    print(f"functions ({len(sizes)}) by lines: " +
          spread([length for length, _ in sizes], [0, 20, 40, 60, MAX_FUNCTION_LINES]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
