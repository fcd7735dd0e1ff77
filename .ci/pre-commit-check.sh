#!/usr/bin/env bash
# Runs .pre-commit-hooks.yaml the way a user's repository runs it:
# `pre-commit try-repo` builds vlaunch from this checkout (language: golang,
# the system's Go) and runs both hooks with --all-files on a fixture
# repository made from .ci/testdata/pre-commit: the good files pass, and
# each bad file makes its hook fail with its finding.
# In CI (CI=true) a missing pre-commit is a failure; elsewhere a skip.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
fixture="$repo/.ci/testdata/pre-commit"

if ! command -v pre-commit >/dev/null 2>&1; then
  if [ "${CI:-}" = true ]; then
    echo "pre-commit is not installed (Debian package pre-commit)" >&2
    exit 1
  fi
  echo "pre-commit is not installed: pre-commit hooks not checked"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# pre-commit's store (the clone of this repository and the hook's Go
# environment) in the temporary directory, not the user's cache.
export PRE_COMMIT_HOME="$work/store"
# The hook is built under a GOPATH of pre-commit's; the module cache stays
# the usual one, so the modules `go test` fetched are not fetched again.
GOMODCACHE=$(go env GOMODCACHE)
export GOMODCACHE
# .ci/run's GOFLAGS hold test flags; `go install` needs none.
unset GOFLAGS

fail() {
  echo "pre-commit check: $*" >&2
  exit 1
}

# mkfixture DIR SOURCE...: a git repository with the files of each SOURCE
# (later ones replacing earlier ones), staged: --all-files runs on them.
mkfixture() {
  local dir=$1
  shift
  git init -q "$dir"
  for src in "$@"; do
    cp -R "$src/." "$dir/"
  done
  git -C "$dir" add -A
}

# tryrepo DIR LOG: both hooks on every file of DIR; the exit status is
# pre-commit's.
tryrepo() {
  (cd "$1" && pre-commit try-repo "$repo" --all-files --color never) >"$2" 2>&1
}

mkfixture "$work/good" "$fixture/good"
if ! tryrepo "$work/good" "$work/good.log"; then
  cat "$work/good.log" >&2
  fail "the hooks fail on the good fixture"
fi
# A hook that matched no file says "(no files to check)Skipped": passing
# then would prove nothing.
for hook in "vlaunch lint" "vlaunch validate"; do
  grep -Eq "^${hook}\.+Passed$" "$work/good.log" \
    || { cat "$work/good.log" >&2; fail "$hook did not run and pass on the good fixture"; }
done

mkfixture "$work/bad" "$fixture/good" "$fixture/bad"
if tryrepo "$work/bad" "$work/bad.log"; then
  cat "$work/bad.log" >&2
  fail "the hooks pass on the bad fixture"
fi
for want in '^vlaunch lint\.+Failed$' 'deploy/node1.sh:5:83: error: .*\[VL204\]' \
  '^vlaunch validate\.+Failed$' 'deploy/qwen3.yaml:41:3: error: unknown key "gpu_memory_utilisation".*\[SPEC002\]'; do
  grep -Eq "$want" "$work/bad.log" || { cat "$work/bad.log" >&2; fail "the bad fixture's output lacks /$want/"; }
done
echo "pre-commit hooks: vlaunch-lint and vlaunch-validate pass the good fixture and fail the bad one"
