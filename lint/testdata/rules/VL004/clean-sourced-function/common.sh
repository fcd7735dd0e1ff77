#!/bin/bash
# a helper that sources its argument (qa38b kzwrime common.sh's load_env_file)
load_env_file() {
    local env_file="$1"
    if [ -f "$env_file" ]; then
        source "$env_file"
    else
        echo "missing $env_file" >&2
        exit 1
    fi
}
