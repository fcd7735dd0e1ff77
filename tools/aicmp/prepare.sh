#!/usr/bin/env bash
# Builds a runnable aiconfigurator tree without PyPI, pyarrow or Rust:
#   usage: prepare.sh GIT_DIR OUT_DIR
# GIT_DIR is a local git directory of ai-dynamo/aiconfigurator (clone or bare
# mirror). OUT_DIR receives
#   OUT_DIR/aic     aiconfigurator v0.9.0's source (the last release whose
#                   estimator is pure Python: v0.10.0 on needs its compiled
#                   Rust core and pyarrow, neither buildable from Debian's
#                   packages), with its measured tables for h100_sxm,
#                   h200_sxm and b200_sxm (vllm 0.19.0, sglang 0.5.10, NCCL)
#                   filled in: in v0.9.0 those tables are Git LFS pointers,
#                   so they are taken from commit f93be4aea ("perf: replace
#                   perf CSV assets with parquet (#1047)", the commit that
#                   turned the same CSV files into parquet) and converted back
#                   to CSV by tools/aicdata (`aicdata csv`).
#   OUT_DIR/shim    package metadata for aiconfigurator 0.9.0 (its
#                   __init__ reads its version from it) and a stub of plotext
#                   (terminal plots; not in Debian, not on the estimation path).
set -euo pipefail
CODE=2103aa286a822d112ea83781ad14e3e022b603d9 # tag v0.9.0
DATA=f93be4aea4512a8b93fd16261f63540e6e3d560e # parquet conversion, 2026-05-29
SYSTEMS="h100_sxm h200_sxm b200_sxm b300_sxm"
git_dir=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
aicdata=$here/../aicdata
if [ -e "$out/aic" ]; then
  echo "prepare.sh: $out/aic exists; remove it first" >&2
  exit 1
fi
mkdir -p "$out/aic" "$out/shim"
out=$(cd "$out" && pwd)
# A snapshot mirror may lack a few blobs (v0.9.0's systems/support_matrix.csv,
# read only by `cli support`): archive every path whose blob is present.
git --git-dir="$git_dir" ls-tree -r "$CODE" | awk '{print $3" "$4}' >"$out/tree.lst"
cut -d' ' -f1 "$out/tree.lst" | git --git-dir="$git_dir" cat-file --batch-check | awk '$2=="missing"{print $1}' >"$out/missing.lst"
grep -v -F -f "$out/missing.lst" "$out/tree.lst" | cut -d' ' -f2- >"$out/paths.lst" || true
if [ -s "$out/missing.lst" ]; then
  echo "prepare.sh: blobs absent from the git directory, left out:" >&2
  grep -F -f "$out/missing.lst" "$out/tree.lst" >&2 || true
fi
tr '\n' '\0' <"$out/paths.lst" | xargs -0 git --git-dir="$git_dir" archive "$CODE" | tar -x -C "$out/aic"
(cd "$aicdata" && go build -o "$out/aicdata" .)
D=src/aiconfigurator/systems/data
converted=0
unverified=0
for s in $SYSTEMS; do
  for dir in "$D/$s/vllm/0.19.0" "$D/$s/sglang/0.5.10" $(cd "$out/aic" && ls -d "$D/$s"/nccl/* 2>/dev/null); do
    [ -d "$out/aic/$dir" ] || continue
    for txt in "$out/aic/$dir"/*.txt; do
      head -c 40 "$txt" | grep -q '^version https://git-lfs' || continue
      rel=${txt#"$out/aic/"}
      pq=${rel%.txt}.parquet
      if git --git-dir="$git_dir" cat-file -e "$DATA:$pq" 2>/dev/null; then
        want=$(sed -n 's/^oid sha256://p' "$txt")
        git --git-dir="$git_dir" show "$DATA:$pq" >"$out/tmp.parquet"
        "$out/aicdata" csv "$out/tmp.parquet" "$out/tmp.csv"
        # The LFS pointer names the original file's sha256: the conversion must
        # give it back byte for byte (the originals end lines with LF or CRLF).
        if [ "$(sha256sum <"$out/tmp.csv" | cut -d' ' -f1)" = "$want" ]; then
          mv "$out/tmp.csv" "$txt"
        elif [ "$(sed 's/$/\r/' "$out/tmp.csv" | sha256sum | cut -d' ' -f1)" = "$want" ]; then
          sed 's/$/\r/' "$out/tmp.csv" >"$txt"
        else
          echo "prepare.sh: $rel converted from $pq differs from the LFS object $want; kept, unverified" >&2
          mv "$out/tmp.csv" "$txt"
          unverified=$((unverified + 1))
        fi
        converted=$((converted + 1))
      else
        echo "prepare.sh: no $pq at $DATA; $rel left out" >&2
        rm "$txt"
      fi
    done
  done
done
rm -f "$out/tmp.parquet" "$out/tmp.csv"
echo "prepare.sh: $converted tables converted, $((converted - unverified)) byte-identical to v0.9.0's LFS objects (sha256)" >&2
mkdir -p "$out/shim/aiconfigurator-0.9.0.dist-info"
printf 'Metadata-Version: 2.1\nName: aiconfigurator\nVersion: 0.9.0\n' >"$out/shim/aiconfigurator-0.9.0.dist-info/METADATA"
echo '"""Stub: terminal plotting is not on the estimation path (and plotext is not packaged by Debian)."""' >"$out/shim/plotext.py"
echo "source v0.9.0 ($CODE), tables for $SYSTEMS from $DATA converted to CSV ($((converted - unverified)) of $converted byte-identical to v0.9.0's LFS objects)" >"$out/REVISION"
echo "prepare.sh: ready; run: PYTHONPATH=$out/aic/src:$out/shim /usr/bin/python3 $here/aicmp.py --aic $out"
