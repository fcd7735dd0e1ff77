package lint

import (
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// configKeyUse is one key of a JSON config flag as written: its class
// (top level, or --compilation-config's pass_config), its value and where.
type configKeyUse struct {
	class vllm.ConfigClass
	name  string
	raw   interface{}
	pos   launch.Pos
}

// configKeys reads every key a server sets through the flag (JSON objects
// and dotted --flag.key / --flag.pass_config.key forms); pass_config's keys
// are read one level down, as PassConfig's.
func configKeys(s *server, flag string, top vllm.ConfigClass) []configKeyUse {
	var out []configKeyUse
	for _, f := range s.Flags() {
		if f.Name != flag || f.OtherRelease || f.Value == nil {
			continue
		}
		if sp := f.Spelling(); strings.Contains(sp, ".") {
			out = append(out, dottedConfigKey(sp, f, top)...)
			continue
		}
		obj, ok := decodeKVJSON(f.Value.Text)
		if !ok {
			continue // -O3, or not JSON (VL103)
		}
		for _, name := range sortedKeys(obj) {
			out = append(out, configKeyUse{class: top, name: name, raw: obj[name], pos: keyPos(*f.Value, name)})
			if sub, ok := obj[name].(map[string]interface{}); ok && top == vllm.CompilationConfigClass && name == "pass_config" {
				for _, k := range sortedKeys(sub) {
					out = append(out, configKeyUse{class: vllm.PassConfigClass, name: k, raw: sub[k], pos: keyPos(*f.Value, k)})
				}
			}
		}
	}
	return out
}

// dottedConfigKey reads --compilation-config.pass_config.enable_noop true
// (or -O.cudagraph_mode=FULL) as the keys it sets.
func dottedConfigKey(spelling string, f *cliFlag, top vllm.ConfigClass) []configKeyUse {
	_, path, _ := strings.Cut(spelling, ".")
	parts := strings.Split(strings.TrimSuffix(path, "+"), ".")
	out := []configKeyUse{{class: top, name: parts[0], raw: f.Value.Text, pos: f.At.Pos}}
	if len(parts) > 1 {
		out[0].raw = map[string]interface{}{}
		if top == vllm.CompilationConfigClass && parts[0] == "pass_config" {
			out = append(out, configKeyUse{class: vllm.PassConfigClass, name: parts[1], raw: f.Value.Text, pos: f.At.Pos})
		}
	}
	return out
}

func sortedKeys(m map[string]interface{}) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkConfigKeys reports --compilation-config (its pass_config) and
// --eplb-config keys the release's config class lacks, and a cudagraph_mode
// it does not name (VL138; vllm.ConfigFields, read at the tags
// 0.11.0-0.24.0): an error where argument parsing refuses the key (extra=
// "forbid": CompilationConfig/PassConfig from 0.13.0, EPLBConfig from
// 0.16.0), a warning where pydantic drops it silently, a note for a release
// after the last one read, and nothing before the first.
func checkConfigKeys(p *pass) {
	for _, s := range p.Servers {
		if s.Rel.Version.Less(vllm.ConfigFieldsFirstRead()) {
			continue
		}
		uses := append(configKeys(s, "compilation-config", vllm.CompilationConfigClass), configKeys(s, "eplb-config", vllm.EPLBConfigClass)...)
		for _, u := range uses {
			checkConfigKey(p, s, u)
		}
	}
}

// configFlagOf names the flag a class is written in.
func configFlagOf(c vllm.ConfigClass) string {
	switch c {
	case vllm.PassConfigClass:
		return "--compilation-config's pass_config"
	case vllm.EPLBConfigClass:
		return "--eplb-config"
	}
	return "--compilation-config"
}

// checkConfigKey reports one key: not a field of the class in the release,
// or a cudagraph_mode value vLLM does not know.
func checkConfigKey(p *pass, s *server, u configKeyUse) {
	k := vllm.ConfigFields(u.class, s.Rel.Version)
	flag := configFlagOf(u.class)
	if oneOf(u.name, k.Fields) {
		if u.class == vllm.CompilationConfigClass && u.name == "cudagraph_mode" {
			checkCUDAGraphMode(p, s, u, k)
		}
		if dep := vllm.PassConfigDeprecatedIn(u.name); u.class == vllm.PassConfigClass && !dep.IsZero() && k.Read {
			p.ReportAtSeverity(s.Inv, u.pos, diag.Warning, "use "+vllm.PassConfigReplacement(u.name),
				"%s key %q is deprecated in vLLM %s and removed in 0.13.0 (vllm v0.12.0 vllm/config/compilation.py:124-143: \"Deprecated in: v0.12.0 ... Will be removed in v0.13.0\"; absent at the v0.13.0 tag)", flag, u.name, dep)
		}
		return
	}
	hint := configKeyHint(u, k)
	switch {
	case !k.Read:
		p.ReportAtSeverity(s.Inv, u.pos, diag.Info, hint,
			"%s key %q is not a field of %s in vLLM %s, the last release read; vLLM %s was not read, so whether it refuses the key is unknown (%s)",
			flag, u.name, u.class, k.LastRead, s.Rel, k.Source)
	case k.Effect == vllm.KVKeyRefused:
		p.ReportVersioned(s, u.pos, hint,
			"%s key %q is not a field of %s in vLLM %s: argument parsing refuses it and vllm serve exits (%s)", flag, u.name, u.class, s.Rel, k.Source)
	default:
		p.ReportAtSeverity(s.Inv, u.pos, diag.Warning, hint,
			"%s key %q is not a field of %s in vLLM %s, which drops it silently: the setting has no effect (%s)", flag, u.name, u.class, s.Rel, k.Source)
	}
}

// configKeyHint says what became of the key, or what it may have meant.
func configKeyHint(u configKeyUse, k vllm.ConfigKeys) string {
	since, removed, ever := vllm.ConfigFieldSpan(u.class, u.name)
	rep := ""
	if r := vllm.PassConfigReplacement(u.name); r != "" && u.class == vllm.PassConfigClass {
		rep = "; use " + r
	}
	from := " from vLLM " + since.String()
	if !vllm.ConfigFieldsFirstRead().Less(since) {
		from = "" // there at the first release read: its first release is not known
	}
	switch {
	case ever && !removed.IsZero():
		return u.name + " was a " + u.class.String() + " field" + from + " until vLLM " + removed.String() + ", which removed it" + rep
	case ever:
		return u.name + " is a " + u.class.String() + " field" + from + " on"
	}
	if c := nearestKVField(u.name, k.Fields); c != "" {
		return "did you mean " + c + "? " + u.class.String() + "'s fields are " + strings.Join(k.Fields, ", ")
	}
	return u.class.String() + "'s fields are " + strings.Join(k.Fields, ", ")
}

// cudagraphModeSource cites the parse and the names (vllm.CUDAGraphModes).
const cudagraphModeSource = "vllm/config/compilation.py validate_cudagraph_mode_before (v0.24.0:845-851) and class CUDAGraphMode, the same five names at every tag 0.11.0-0.24.0"

// checkCUDAGraphMode reports a cudagraph_mode name CUDAGraphMode lacks
// (vLLM parses it with CUDAGraphMode[value.upper()]).
func checkCUDAGraphMode(p *pass, s *server, u configKeyUse, k vllm.ConfigKeys) {
	v, ok := u.raw.(string)
	if !ok || strings.Contains(v, "$") || oneOf(strings.ToUpper(v), vllm.CUDAGraphModes) {
		return
	}
	hint := "cudagraph_mode is one of " + strings.Join(vllm.CUDAGraphModes, ", ")
	if !k.Read {
		p.ReportAtSeverity(s.Inv, u.pos, diag.Info, hint, "cudagraph_mode %q is not a CUDAGraphMode in vLLM %s, the last release read; vLLM %s was not read (%s)", v, k.LastRead, s.Rel, cudagraphModeSource)
		return
	}
	p.ReportVersioned(s, u.pos, hint, "cudagraph_mode %q is not a CUDAGraphMode in vLLM %s: CUDAGraphMode[value.upper()] fails and vllm serve exits (%s)", v, s.Rel, cudagraphModeSource)
}
