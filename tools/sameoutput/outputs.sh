#!/bin/bash
# outputs.sh BINARY OUTDIR writes what `plan` and `check` print (text and
# --format json, with the exit code) on every examples/*.yaml and the QA
# specs of plan/testdata/qa44b, plus `plan --objective fewest-gpus` on the
# reference and on QA spec 08, one file each, for a speed change to be
# diffed against the build before it:
#   go build -o /tmp/vl-before ./cmd/vlaunch   (on the commit before)
#   tools/sameoutput/outputs.sh /tmp/vl-before /tmp/out-before
#   tools/sameoutput/outputs.sh /tmp/vl-after /tmp/out-after
#   diff -r /tmp/out-before /tmp/out-after && echo byte-identical
# Run it from the repository root.
set -u
B=$1
O=$2
mkdir -p "$O"
for f in examples/*.yaml plan/testdata/qa44b/*.yaml; do
	n=$(basename "$f" .yaml)
	for c in plan check; do
		"$B" "$c" "$f" >"$O/$n.$c.txt" 2>&1
		echo "rc=$?" >>"$O/$n.$c.txt"
		"$B" "$c" --format json "$f" >"$O/$n.$c.json" 2>&1
		echo "rc=$?" >>"$O/$n.$c.json"
	done
done
for f in examples/deepseek-v3-32xh20.yaml plan/testdata/qa44b/08-glm-4.6-fp8-mtp-8xh200.yaml; do
	n=$(basename "$f" .yaml)
	"$B" plan --objective fewest-gpus "$f" >"$O/$n.fewest.txt" 2>&1
	echo "rc=$?" >>"$O/$n.fewest.txt"
done
