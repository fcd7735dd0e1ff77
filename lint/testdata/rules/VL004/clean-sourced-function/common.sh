#!/bin/bash
# a helper that sources its argument (after qa38b kzwrime common.sh's
# load_env_file, without its `if [ -f ]; else exit` guard: a variable set in
# one arm of an if is not kept by the walker, sourced or not)
load_env_file() {
    local env_file="$1"
    source "$env_file"
}
