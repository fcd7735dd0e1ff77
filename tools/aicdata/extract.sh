#!/usr/bin/env bash
# Extracts the parts of ai-dynamo/aiconfigurator's systems directory that
# `aicdata derive` reads, at the pinned commit, from a local git directory
# of that repository (a clone or bare mirror), then derives the tables.
#   usage: extract.sh GIT_DIR OUT_DIR
# Leaves OUT_DIR/aic-core/src/aiconfigurator_core/systems (about 140 MB) and
# writes derived.json, tables.md, moe_curves.json, gemm_tables.json, moe_width.json and
# moe_stream.json beside this script (gemm_tables.json and moe_stream.json also into
# estimate/perf, which embeds them).
set -euo pipefail
COMMIT=095f58a51c4ca8e61b66ec108d86f223f8d559ce
git_dir=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
P=aic-core/src/aiconfigurator_core/systems
systems="a100_sxm h100_sxm h200_sxm b200_sxm b300_sxm gb200 l40s rtx_pro_6000_server"
paths=()
for s in $systems; do
  paths+=("$P/$s.yaml")
  for op in gemm attention moe comm mla; do paths+=("$P/data/$s/$op"); done
done
mkdir -p "$out"
git --git-dir="$git_dir" archive "$COMMIT" "${paths[@]}" | tar -x -C "$out"
cd "$here"
go run . derive -commit "$COMMIT" "$out/$P" >derived.json
go run . derive -format md -commit "$COMMIT" "$out/$P" >tables.md
go run . moecurve -maxgpus 8 -floor 1 -format json "$out/$P" >moe_curves.json
go run . gemmtable -commit "$COMMIT" "$out/$P" >gemm_tables.json
cp gemm_tables.json ../../estimate/perf/gemm_tables.json
go run . moewidth -format json "$out/$P" >moe_width.json
go run . moestream -format json -commit "$COMMIT" "$out/$P" >moe_stream.json
cp moe_stream.json ../../estimate/perf/moe_stream.json
