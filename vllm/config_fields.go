package vllm

import "strconv"

// The keys of --compilation-config (CompilationConfig, its pass_config
// PassConfig) and --eplb-config (EPLBConfig) per release, and what `vllm
// serve` does with a key that is not a field (qa44a F3). Read at every
// final release tag v0.11.0-v0.24.0 in the fork snapshot
// github.com/kzwrime/vllm (upstream's tags; config_fields_table.go holds
// the fields, generated with Python's ast from the class bodies, fields
// with init=False left out since the constructor refuses them):
//
//   - CompilationConfig and PassConfig (vllm/config/compilation.py) are
//     pydantic dataclasses. v0.11.0-v0.12.0 give them no config, so
//     pydantic's default extra='ignore' drops an unknown key silently;
//     v0.13.0-v0.15.1 declare @dataclass(config=ConfigDict(extra="forbid"))
//     (v0.13.0 compilation.py:99 PassConfig, :293 CompilationConfig) and
//     v0.16.0 on get the same from @config (vllm/config/utils.py:
//     merged_config = ConfigDict(extra="forbid")): argument parsing
//     (TypeAdapter(cls).validate_json) refuses the key and vllm serve exits.
//   - EPLBConfig (vllm/config/parallel.py, from v0.10.2) is a plain
//     pydantic dataclass up to v0.15.1 (ignored) and an @config class from
//     v0.16.0 (refused).
//   - PassConfig's enable_fusion, enable_attn_fusion, enable_noop,
//     enable_sequence_parallelism, enable_async_tp and
//     enable_fi_allreduce_fusion are "Deprecated in: v0.12.0 … Will be
//     removed in v0.13.0" (v0.12.0 compilation.py:124-143) and gone from
//     v0.13.0 on, each with its replacement named there.
//   - cudagraph_mode is parsed with CUDAGraphMode[value.upper()]
//     (validate_cudagraph_mode_before; v0.24.0 compilation.py:845-851):
//     NONE, PIECEWISE, FULL, FULL_DECODE_ONLY, FULL_AND_PIECEWISE at every
//     tag read; another name is a KeyError and vllm serve exits.
//
// Releases before 0.11.0 and after 0.24.0 were not read.

// configFieldsRow is one release tag read: the fields of each class and
// the lines the classes start at (for citations).
type configFieldsRow struct {
	release, tag                 string
	compilation, pass, eplb      []string
	compLine, passLine, eplbLine int
}

// ConfigClass names a config class whose keys are checked.
type ConfigClass int

const (
	// CompilationConfigClass is --compilation-config's top level.
	CompilationConfigClass ConfigClass = iota + 1
	// PassConfigClass is --compilation-config's pass_config.
	PassConfigClass
	// EPLBConfigClass is --eplb-config.
	EPLBConfigClass
)

// String is the class's name in vLLM.
func (c ConfigClass) String() string {
	switch c {
	case CompilationConfigClass:
		return "CompilationConfig"
	case PassConfigClass:
		return "PassConfig"
	case EPLBConfigClass:
		return "EPLBConfig"
	}
	return "?"
}

// ConfigKeys are a config class's fields in one release and what the
// release does with another key.
type ConfigKeys struct {
	// Read is false when the release's tag was not read (before 0.11.0,
	// after 0.24.0): Fields are then the newest read release's, LastRead.
	Read     bool
	Fields   []string
	Effect   KVUnknownKeyEffect
	Source   string
	LastRead Version
}

// configRefusedFrom is the first release whose class refuses an unknown
// key (extra="forbid").
func configRefusedFrom(c ConfigClass) Version {
	if c == EPLBConfigClass {
		return v0160
	}
	return v0130
}

// ConfigFields returns a config class's keys in release v.
func ConfigFields(c ConfigClass, v Version) ConfigKeys {
	last := configFieldsTable[len(configFieldsTable)-1]
	k := ConfigKeys{LastRead: mustVersion(last.release)}
	row, ok := configRow(v)
	if !ok {
		row = last
	}
	k.Read = ok
	fields, file, line := row.compilation, "vllm/config/compilation.py", row.compLine
	switch c {
	case PassConfigClass:
		fields, line = row.pass, row.passLine
	case EPLBConfigClass:
		fields, file, line = row.eplb, "vllm/config/parallel.py", row.eplbLine
	}
	k.Fields = fields
	how := "a pydantic dataclass with the default extra='ignore': an unknown key is dropped silently"
	k.Effect = KVKeyIgnored
	if !mustVersion(row.release).Less(configRefusedFrom(c)) {
		k.Effect = KVKeyRefused
		how = `ConfigDict(extra="forbid"): "Extra inputs are not permitted", argument parsing fails and vllm serve exits`
	}
	k.Source = "vllm v" + row.release + " tag " + row.tag + " " + file + ":" + strconv.Itoa(line) + " " + c.String() + "; " + how
	return k
}

// configRow is the table's row for release v (0.11.1rc1 is row 0.11.1).
func configRow(v Version) (configFieldsRow, bool) {
	for _, r := range configFieldsTable {
		if mustVersion(r.release).Compare(v.Base()) == 0 {
			return r, true
		}
	}
	return configFieldsRow{}, false
}

// ConfigFieldsRead reports whether release v's config classes were read.
func ConfigFieldsRead(v Version) bool { _, ok := configRow(v); return ok }

// ConfigFieldSpan is the first release read that has the field and the
// first read after it that lacks it again (zero when still there at the
// last release read); ok is false when no release read has it.
func ConfigFieldSpan(c ConfigClass, name string) (since, removed Version, ok bool) {
	for _, r := range configFieldsTable {
		fields := r.compilation
		switch c {
		case PassConfigClass:
			fields = r.pass
		case EPLBConfigClass:
			fields = r.eplb
		}
		has := false
		for _, f := range fields {
			if f == name {
				has = true
				break
			}
		}
		switch {
		case has && !ok:
			since, ok = mustVersion(r.release), true
		case !has && ok && removed.IsZero():
			removed = mustVersion(r.release)
		}
	}
	return since, removed, ok
}

// PassConfigReplacement is what v0.12.0's PassConfig names as the
// replacement of a key it deprecates (removed in 0.13.0), "" for others.
func PassConfigReplacement(name string) string {
	return passReplacements[name]
}

var passReplacements = map[string]string{
	"enable_fusion":               "fuse_norm_quant and fuse_act_quant",
	"enable_attn_fusion":          "fuse_attn_quant",
	"enable_noop":                 "eliminate_noops",
	"enable_sequence_parallelism": "enable_sp",
	"enable_async_tp":             "fuse_gemm_comms",
	"enable_fi_allreduce_fusion":  "fuse_allreduce_rms",
}

// passDeprecated is the release whose PassConfig deprecates those keys.
var passDeprecated = v0120

// PassConfigDeprecatedIn is the release that deprecated a replaced
// PassConfig key (zero for others).
func PassConfigDeprecatedIn(name string) Version {
	if _, ok := passReplacements[name]; ok {
		return passDeprecated
	}
	return Version{}
}

// CUDAGraphModes are the names CompilationConfig.cudagraph_mode accepts
// (case-insensitive) at every tag read, v0.11.0-v0.24.0.
var CUDAGraphModes = []string{"NONE", "PIECEWISE", "FULL", "FULL_DECODE_ONLY", "FULL_AND_PIECEWISE"}

// ConfigFieldsFirstRead is the oldest release whose config classes were
// read: the key checks hold from there.
func ConfigFieldsFirstRead() Version { return mustVersion(configFieldsTable[0].release) }
