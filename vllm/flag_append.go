package vllm

// ignorePatternsStored is the first release whose --ignore-patterns a
// repeat replaces: v0.9.0's vllm/engine/arg_utils.py adds it through
// get_kwargs (a list, nargs="+", argparse's "store"); v0.5.3-v0.8.5's
// declare it with action="append" (read at every tag between).
var ignorePatternsStored = v090

// AppendsOnRepeat reports a flag whose argparse action is "append" in
// release v: each use adds to a list instead of replacing the one before,
// so giving it twice is how a launch line passes several values, not a
// mistake (lint's VL106 leaves it alone). Read at the tags of the vLLM
// mirror:
//   - --middleware: vllm/entrypoints/openai/cli_args.py declares it with
//     action="append" at every tag read, v0.5.3 to v0.24.0 (v0.24.0 l.326,
//     frontend_kwargs["middleware"]["action"] = "append").
//   - --ignore-patterns: vllm/engine/arg_utils.py, action="append" from
//     v0.5.3 to v0.8.5; from v0.9.0 a list argument a repeat replaces.
//
// Every other engine and server flag is a store action at v0.24.0
// (arg_utils.py get_kwargs: nargs="+" lists are replaced, not extended).
func AppendsOnRepeat(name string, v Version) bool {
	switch name {
	case "middleware":
		return true
	case "ignore-patterns":
		return v.Less(ignorePatternsStored)
	}
	return false
}
