#!/usr/bin/env bash
# The include graph of a source folder, to keep its layers one-way: reads the `#include "..."`
# lines of every .c and .h file in each folder tree given (default: src), treats a .c file and the
# .h of the same name (and its <name>_internal.h) as one node (a module), and prints one
# "module: modules it includes" line per module. Includes that name no file of the folder (the public header, system headers) are left
# out. If the modules include each other, directly or round a longer loop, the script names each
# loop found as "cycle: a -> b -> a" on stderr and exits 1.
#
# Usage: scripts/include-graph.sh [folder...]   (run from anywhere; folders relative to the repo)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$#" -gt 0 ] || set -- src

status=0
for dir in "$@"; do
  if [ ! -d "$dir" ]; then
    echo "include-graph: no folder $dir" >&2
    exit 2
  fi
  mapfile -t files < <(find "$dir" -name '*.[ch]' | sort)
  echo "# $dir"
  # One "module included-module" pair per include line that names a file of the folder tree: a
  # module is a path below the folder without its extension (a .c and its .h), and a header
  # named <module>_internal.h, shared by the files of one module, belongs to that module.
  module_of() {
    local m="${1#"$dir"/}"
    m="${m%.*}"
    echo "${m%_internal}"
  }
  edges="$(
    for f in "${files[@]}"; do
      from="$(module_of "$f")"
      sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
        while IFS= read -r inc; do
          # Includes are named from the folder ("index/grid.h") or beside the including file.
          if [ -f "$dir/$inc" ]; then
            printf '%s %s\n' "$from" "$(module_of "$dir/$inc")"
          elif [ -f "$(dirname "$f")/$inc" ]; then
            printf '%s %s\n' "$from" "$(module_of "$(dirname "$f")/$inc")"
          fi
        done
    done
  )"
  modules="$(for f in "${files[@]}"; do module_of "$f"; done | sort -u)"
  if ! awk -v modules="$modules" '
    # Depth-first search in name order; a grey module met again closes a loop: the stack from it.
    function visit(m,    i, d) {
      colour[m] = 1
      stack[++depth] = m
      for (i = 1; i <= ndeps[m]; ++i) {
        d = dep[m, i]
        if (colour[d] == 1) {
          line = ""
          for (k = depth; stack[k] != d; --k) {}
          for (; k <= depth; ++k) line = line stack[k] " -> "
          print "cycle: " line d > "/dev/stderr"
          found = 1
        } else if (colour[d] == 0) {
          visit(d)
        }
      }
      --depth
      colour[m] = 2
    }
    NF == 2 && $1 != $2 && !((($1, $2) in seen)) {
      seen[$1, $2] = 1
      dep[$1, ++ndeps[$1]] = $2
    }
    END {
      n = split(modules, list, "\n")
      for (i = 1; i <= n; ++i) {
        m = list[i]
        # Sorted dependencies, so the output does not depend on the order files were read.
        for (a = 2; a <= ndeps[m]; ++a) {
          for (b = a; b > 1 && dep[m, b - 1] > dep[m, b]; --b) {
            t = dep[m, b]; dep[m, b] = dep[m, b - 1]; dep[m, b - 1] = t
          }
        }
        line = m ":"
        for (a = 1; a <= ndeps[m]; ++a) line = line " " dep[m, a]
        print line
      }
      for (i = 1; i <= n; ++i) {
        if (colour[list[i]] == 0) visit(list[i])
      }
      exit found
    }
  ' <<<"$edges"; then
    echo "include-graph: $dir has include cycles" >&2
    status=1
  fi
done
exit "$status"
