package lint

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkValues reports values of the wrong type and missing values (VL103).
func checkValues(p *pass) {
	for _, s := range p.Servers {
		for _, f := range s.Flags() {
			spec := f.spec() // an abbreviation takes its flag's values
			if spec == nil {
				continue
			}
			if f.MissingValue {
				p.ReportAt(s.Inv, f.At.Pos, "", "flag %s expects a %s value", f.Spelling(), spec.Kind)
				continue
			}
			if f.Value == nil || !f.Value.Known || isDotted(f) {
				continue
			}
			if none, _ := s.Rel.EmptyValueIsNone(spec); none == vllm.Present && strings.TrimSpace(f.Value.Text) == "" {
				continue // `--kv-cache-memory-bytes=${X-}` with X unset: vLLM reads None
			}
			if msg := badValue(spec, f.Value.Text); msg != "" {
				p.ReportAt(s.Inv, f.Value.Pos, "", "%s: %s", f.Spelling(), msg)
			}
		}
	}
}

// badValue checks a value against a flag's kind ("" when fine).
func badValue(spec *vllm.Flag, v string) string {
	t := strings.TrimSpace(v)
	if fillInWord.MatchString(t) && (addressFlags[spec.Name] || spec.Kind == vllm.Int) {
		return "" // a name to replace (prefill_node_1_ip, dp_rpc_port): a placeholder
	}
	if addressFlags[spec.Name] {
		if msg := badAddress(v); msg != "" {
			return strconv.Quote(v) + " " + msg
		}
	}
	switch spec.Kind {
	case vllm.Int:
		if _, err := strconv.Atoi(t); err != nil {
			return "invalid integer " + strconv.Quote(v)
		}
	case vllm.HumanInt:
		if !humanInt(t) {
			return "invalid integer " + strconv.Quote(v) + " (human forms such as 32k are allowed)"
		}
	case vllm.Float:
		x, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return "invalid number " + strconv.Quote(v)
		}
		if r, ok := vllm.FlagRange(spec.Name); ok && !r.Contains(x) {
			return "must be " + r.What + " in " + r.String() + ", got " + v
		}
	case vllm.JSON:
		if strings.HasPrefix(t, "{") && !json.Valid([]byte(t)) {
			return "invalid JSON (in a shell script, wrap the JSON in single quotes)"
		}
		if q := literalQuotes(t); q != "" {
			return "the JSON reaches vLLM inside literal " + q + " characters, which its JSON parser refuses (TypeAdapter.validate_json, vllm/engine/arg_utils.py parse_dataclass): quotes stored in a variable are not removed when it is expanded unquoted; store the JSON without them, or pass the flags as an array (\"${ARGS[@]}\")"
		}
	}
	return ""
}

// literalQuotes names the quote character wrapping a JSON object that is
// part of the value itself ('{...}' or "{...}"), "" when there is none.
func literalQuotes(t string) string {
	if len(t) < 4 || (t[0] != '\'' && t[0] != '"') || t[1] != '{' || t[len(t)-1] != t[0] {
		return ""
	}
	if json.Valid([]byte(t[1 : len(t)-1])) {
		if t[0] == '"' {
			return "double-quote"
		}
		return "single-quote"
	}
	return ""
}

func humanInt(t string) bool {
	if t == "auto" || t == "-1" {
		return true
	}
	t = strings.TrimRight(t, "kKmMgGtT")
	_, err := strconv.ParseFloat(t, 64)
	return err == nil
}

// checkChoices reports values outside a flag's choices (VL104).
func checkChoices(p *pass) {
	for _, s := range p.Servers {
		for _, f := range s.Flags() {
			if f.Spec != nil && f.Spec.Name == "all2all-backend" && f.Value != nil && f.Value.Known {
				checkBackendChoice(p, s, f)
				continue
			}
			spec := f.spec() // an abbreviation takes its flag's choices
			if spec == nil || f.Value == nil || !f.Value.Known || len(spec.Choices) == 0 {
				continue
			}
			if !spec.HasChoice(f.Value.Text) {
				hint := "allowed: " + strings.Join(spec.Choices, ", ")
				if sug := catalog.Suggest(f.Value.Text, spec.Choices); len(sug) > 0 {
					hint = "did you mean " + sug[0] + "? " + hint
				}
				p.ReportAt(s.Inv, f.Value.Pos, hint, "%s %q is not a valid choice in vLLM %s", f.Spelling(), f.Value.Text, s.Rel)
			}
		}
	}
}

// checkBackendChoice checks --all2all-backend against the release's backends.
func checkBackendChoice(p *pass, s *server, f *cliFlag) {
	if _, ok := s.Rel.All2AllBackend(f.Value.Text); ok {
		// A backend first seen in a later release whose first release is
		// unknown: not refused, only unverified (issue #23).
		if in, seen := s.Rel.BackendIn(f.Value.Text); in == vllm.Maybe {
			p.ReportAtSeverity(s.Inv, f.Value.Pos, diag.Info, "check `vllm serve --help` of this release, or state the release the script runs",
				"cannot verify that vLLM %s accepts %s %q; first seen in %s (its first release is not known)", s.Rel, f.Spelling(), f.Value.Text, seen)
		}
		return
	}
	names := s.Rel.All2AllBackends()
	hint := "allowed: " + strings.Join(names, ", ")
	if sug := catalog.Suggest(f.Value.Text, names); len(sug) > 0 {
		hint = "did you mean " + sug[0] + "? " + hint
	}
	msg := "%s %q is not an all-to-all backend of vLLM %s"
	switch {
	case nextToFirstRelease(s.Rel, f.Value.Text):
		p.ReportAtSeverity(s.Inv, f.Value.Pos, diag.Warning, hint, msg+" (it comes in a later release not yet pinned; builds from main after %s may have it)",
			f.Spelling(), f.Value.Text, s.Rel, s.Rel)
	case knownBackendElsewhere(f.Value.Text):
		p.ReportVersioned(s, f.Value.Pos, hint, msg, f.Spelling(), f.Value.Text, s.Rel)
	case nearMiss(f.Value.Text, names):
		p.ReportAt(s.Inv, f.Value.Pos, hint, msg, f.Spelling(), f.Value.Text, s.Rel)
	case s.Inv.Platform != "" && s.Inv.Platform != launch.PlatformCUDA:
		// A name vlaunch has never seen, on another platform's build
		// (ROCm, HCU, Ascend, ...): vendor builds register their own
		// backends, as their plugins register connectors (VL133).
		p.ReportAtSeverity(s.Inv, f.Value.Pos, diag.Info, hint, msg+" as far as vlaunch's table knows (a %s build may add its own)", f.Spelling(), f.Value.Text, s.Rel, s.Inv.Platform)
	default:
		// A name vlaunch has never seen: newer vLLM builds add backends
		// before a release table can list them.
		p.ReportAtSeverity(s.Inv, f.Value.Pos, diag.Warning, hint, msg+" as far as vlaunch's table knows", f.Spelling(), f.Value.Text, s.Rel)
	}
}

// nextToFirstRelease reports a backend the release lacks whose first
// release is not pinned and may be the table's next one: a build from main
// between the two (or a release with the backend's PR applied, as real
// launch files do) may already take it, so a warning rather than an error.
func nextToFirstRelease(rel vllm.Release, name string) bool {
	b, ok := vllm.KnownBackendEver(name)
	if !ok || !rel.Version.Less(b.Since) || b.FirstConfirmed() == b.Since {
		return false
	}
	for _, r := range vllm.Releases() {
		if rel.Version.Less(r.Version) {
			return r.Version.Compare(b.Since) == 0
		}
	}
	return false
}

// knownBackendElsewhere reports a backend some release has.
func knownBackendElsewhere(name string) bool {
	_, ok := vllm.KnownBackendEver(name)
	return ok
}

// nearMiss reports a value one or two edits from a known one (a typo).
func nearMiss(v string, known []string) bool {
	for _, k := range known {
		if catalog.Levenshtein(v, k) <= 2 {
			return true
		}
	}
	return false
}

// checkBoolValue reports `--enable-expert-parallel true` and `--x=true` (VL105).
// A switch the linted release no longer (or not yet) has is read the way
// the releases that have it read it (f.OtherRelease): `--engine-use-ray
// true` on a release with the flag exits with argparse's "unrecognized
// arguments: true", and VL102 already says the flag itself is gone here.
func checkBoolValue(p *pass) {
	for _, s := range p.Servers {
		for _, f := range s.Flags() {
			spec := f.Spec
			if spec == nil && f.OtherRelease {
				spec, _ = vllm.KnownFlagEver(f.Name)
			}
			if spec == nil || spec.Kind.TakesValue() {
				continue
			}
			// argparse's own words: a separate word is left over
			// ("unrecognized arguments"), an inline one refused.
			v, says := f.BoolValue, "unrecognized arguments: %s"
			if v == nil {
				v, says = f.Value, "argument %s: ignored explicit argument '%s'"
			}
			if v == nil {
				continue
			}
			why := fmt.Sprintf(says, v.Text)
			if f.BoolValue == nil {
				why = fmt.Sprintf(says, f.Spelling(), v.Text)
			}
			hint := "write " + f.Spelling() + " alone"
			if spec.Kind == vllm.Bool {
				hint += ", or --no-" + spec.Name + " to turn it off"
			}
			p.ReportAt(s.Inv, v.Pos, hint, "%s is a switch and takes no value; %q is read as a stray argument (vLLM exits: %q)", f.Spelling(), v.Text, why)
		}
	}
}

// checkDuplicates reports an engine flag a launch line gives twice with
// different values (VL106), however it is spelt: an alias (-tp), the
// --flag=value form, an abbreviation argparse expands, --x then --no-x.
// argparse's store action keeps the last, so the first is silently
// dropped; vLLM itself warns only of a repeated literal spelling ("Found
// duplicate keys", vllm/utils/argparse_utils.py from v0.12.0, absent at
// v0.11.2). Flags whose action is "append" (vllm.AppendsOnRepeat:
// --middleware) are meant to be repeated; a value the --config file sets
// and the command line overrides is how vLLM means it to work.
func checkDuplicates(p *pass) {
	for _, s := range p.Servers {
		seen := map[string]*cliFlag{}
		reported := map[string]bool{} // one finding per flag, however many repeats
		for _, f := range s.Flags() {
			spec := f.spec()
			if spec == nil || f.Wrapper || isDotted(f) || vllm.AppendsOnRepeat(spec.Name, s.Rel.Version) {
				continue
			}
			prev, ok := seen[spec.Name]
			seen[spec.Name] = f
			if ok && fromConfigFile(s, prev) && !fromConfigFile(s, f) {
				continue // the command line overrides the --config file, as vLLM means it to
			}
			if ok && !reported[spec.Name] && flagText(prev) != flagText(f) {
				reported[spec.Name] = true
				reportDuplicate(p, s, spec, prev, f)
			}
		}
	}
}

// reportDuplicate says where the first two different uses of spec are and
// which value argparse keeps: the last use's, which may come later still.
func reportDuplicate(p *pass, s *server, spec *vllm.Flag, prev, f *cliFlag) {
	last, n := f, 0
	for _, g := range s.Flags() {
		if sp := g.spec(); sp != nil && sp.Name == spec.Name && !g.Wrapper && !isDotted(g) && !fromConfigFile(s, g) {
			last, n = g, n+1
		}
	}
	times, wins := "twice", flagText(last)
	if n > 2 {
		times = fmt.Sprintf("%d times", n)
	}
	if last != f {
		wins += " (its last use, at " + posText(s, last.At.Pos) + ")"
	}
	p.ReportAt(s.Inv, f.At.Pos, "give it once; vLLM uses the last",
		"%s given %s with different values: %s at %s, then %s at %s; argparse keeps the last, so vLLM runs with %s %s",
		spec.Long(), times, flagWords(prev), posText(s, prev.At.Pos), flagWords(f), posText(s, f.At.Pos), spec.Long(), wins)
}

// flagWords is a use of a flag as written with its value ("-tp 4",
// "--max-num-seqs=8", "--no-enable-prefix-caching").
func flagWords(f *cliFlag) string {
	if f.Value == nil {
		return f.Spelling()
	}
	if f.At.Text != f.Spelling() && strings.HasSuffix(f.At.Text, f.Value.Text) {
		return f.At.Text // --x=value, or a short alias's attached value (-O3)
	}
	return f.Spelling() + " " + f.Value.Text
}

// posText says where a flag is: "line L:C", naming its file when it is
// not the server's own (a --config file, a runner's environment).
func posText(s *server, at launch.Pos) string {
	out := fmt.Sprintf("line %d:%d", at.Line, at.Col)
	if at.File != "" && at.File != s.Inv.File {
		out += " of " + at.File
	}
	return out
}

// fromConfigFile reports a flag read from the server's --config file
// (launch.ConfigArgs): its position is in another input.
func fromConfigFile(s *server, f *cliFlag) bool {
	return f.At.Pos.File != "" && f.At.Pos.File != s.Inv.File
}

func flagText(f *cliFlag) string {
	if f.Negated {
		return "off"
	}
	if f.Value == nil {
		return "on"
	}
	return f.Value.Text
}

// isDotted reports the JSON dotted-key form (--eplb-config.window_size 1000).
func isDotted(f *cliFlag) bool {
	sp := f.Spelling()
	return strings.HasPrefix(sp, "-") && strings.Contains(sp, ".") && f.Spec != nil && f.Spec.Kind == vllm.JSON
}

// headroomMin is the fraction of GPU memory left for what vLLM does not
// budget: CUDA context and NCCL/DeepEP buffers take roughly 2-3 GiB of an
// 80 GiB GPU, i.e. about 3%.
const headroomMin = 0.03

// checkGPUMemUtil reports a gpu_memory_utilization with no headroom (VL114).
func checkGPUMemUtil(p *pass) {
	for _, s := range p.Servers {
		v, ok := s.Str("gpu-memory-utilization")
		if !ok || !v.Known {
			continue
		}
		x, err := strconv.ParseFloat(v.Text, 64)
		if r, _ := vllm.FlagRange("gpu-memory-utilization"); err != nil || !r.Contains(x) { // VL103 reports it
			continue
		}
		if 1-x < headroomMin {
			p.ReportAt(s.Inv, v.Pos, "0.90-0.95 is usual; multi-node NCCL and DeepEP buffers need room outside the budget", "--gpu-memory-utilization %s leaves under %.0f%% of GPU memory for CUDA context and communication buffers", v.Text, headroomMin*100)
		}
	}
}
