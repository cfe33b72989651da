#!/usr/bin/env python3
"""Makes the built-in rows (src/decisions/rows/<mpi>.txt, data) part of the library: a header
holding the file's text, which decisions/config.cpp parses as it parses a tuning file.

Usage: embed_rows.py ROWS_TXT OUTPUT_HEADER"""
import os
import sys


def main():
    source, output = sys.argv[1], sys.argv[2]
    text = open(source, encoding="utf-8").read()
    if ')rows"' in text:
        sys.exit(f"{source}: the text may not hold ')rows\"' (it ends the raw string)")
    name = os.path.basename(source)
    with open(output, "w", encoding="utf-8") as out:
        out.write(f"// Generated from src/decisions/rows/{name} by embed_rows.py when Meson configures: edit that file.\n")
        out.write("#pragma once\n\nnamespace mcorecoll {\n\n")
        out.write(f"constexpr const char* kBuiltInRowsName = \"rows/{name}\";\n")
        out.write(f"constexpr const char* kBuiltInRows = R\"rows({text})rows\";\n\n}}  // namespace mcorecoll\n")


if __name__ == "__main__":
    main()
