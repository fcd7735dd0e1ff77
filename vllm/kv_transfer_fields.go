package vllm

// KVTransferConfig's fields per release, and what `vllm serve` does with a
// --kv-transfer-config key that is not one of them (QA left 39 #3).
//
// Read at each release tag in a fork snapshot carrying upstream's tags
// (github.com/kzwrime/vllm): the class KVTransferConfig in vllm/config.py
// (0.6.5-0.10.0), vllm/config/__init__.py (0.10.1) and
// vllm/config/kv_transfer.py (0.10.2 on), and how vllm/engine/arg_utils.py
// turns the flag's JSON into it:
//
//   - 0.6.5-0.8.5: a pydantic BaseModel, KVTransferConfig.from_cli =
//     model_validate_json, no model_config: pydantic's default extra='ignore'
//     (docs.pydantic.dev/2.10/api/config, ConfigDict.extra: "Whether to
//     ignore, allow, or forbid extra attributes during model
//     initialization. Defaults to 'ignore'") drops the key silently;
//   - 0.9.0: a stdlib dataclass built by get_kwargs's
//     `lambda x, f=dataclass_cls: f(**json.loads(x))` ("Improve configs -
//     the rest!" #17562, 4b2ed7926): the unexpected keyword is a TypeError,
//     which argparse reports as an invalid --kv-transfer-config value and
//     exits;
//   - 0.9.1-0.15.1: a pydantic dataclass ("convert configs to Pydantic
//     dataclasses" #17599, 4c2b38ce9) read by parse_dataclass =
//     TypeAdapter(cls).validate_json, with no config: extra='ignore' again;
//   - 0.16.0 on: the @config decorator builds the pydantic dataclass with
//     ConfigDict(extra="forbid") ("Turn @config into a dataclass_transform"
//     #31541, 61e632aea, vllm/config/utils.py): validate_json raises
//     "Extra inputs are not permitted", parse_dataclass turns it into an
//     ArgumentTypeError and argparse exits.
//
// Fields added: kv_connector_extra_config in 0.8.0, engine_id and
// kv_connector_module_path in 0.9.0, enable_permute_local_kv in 0.11.1
// (#26556, 7e6edb146), kv_load_failure_policy in 0.13.0 (#26813,
// a9e4106f2). Releases before 0.6.5 have no --kv-transfer-config (PR
// #10502); releases after 0.24.0 were not read.

// KVUnknownKeyEffect is what a release does with an unknown key.
type KVUnknownKeyEffect int

const (
	// KVKeyIgnored: the key is dropped silently; vLLM starts without it.
	KVKeyIgnored KVUnknownKeyEffect = iota + 1
	// KVKeyRefused: argument parsing fails; vllm serve exits.
	KVKeyRefused
)

var (
	kvFields065 = []string{"kv_connector", "kv_buffer_device", "kv_buffer_size", "kv_role", "kv_rank", "kv_parallel_size", "kv_ip", "kv_port"}
	kvFields080 = append(kvFields065[:8:8], "kv_connector_extra_config")
	kvFields090 = append(kvFields080[:9:9], "engine_id", "kv_connector_module_path")
	kvFields111 = append(kvFields090[:11:11], "enable_permute_local_kv")
	kvFields130 = append(kvFields111[:12:12], "kv_load_failure_policy")
)

// kvFieldsRow is one release tag read.
type kvFieldsRow struct {
	release, tag string
	fields       []string
	effect       KVUnknownKeyEffect
}

// kvFieldsTable: one row per release tag read, oldest first.
var kvFieldsTable = []kvFieldsRow{
	{"0.6.5", "2d1b9baa8f57", kvFields065, KVKeyIgnored},
	{"0.6.6", "f49777ba62b4", kvFields065, KVKeyIgnored},
	{"0.7.0", "5204ff5c3fee", kvFields065, KVKeyIgnored},
	{"0.7.1", "4f4d427ac2ce", kvFields065, KVKeyIgnored},
	{"0.7.2", "0408efc6d0c1", kvFields065, KVKeyIgnored},
	{"0.7.3", "ed6e9075d31e", kvFields065, KVKeyIgnored},
	{"0.8.0", "966f933ee1cd", kvFields080, KVKeyIgnored},
	{"0.8.1", "61c7a1b856e3", kvFields080, KVKeyIgnored},
	{"0.8.2", "25f560a62c4f", kvFields080, KVKeyIgnored},
	{"0.8.3", "296c6572dd1f", kvFields080, KVKeyIgnored},
	{"0.8.4", "dc1b4a6f1300", kvFields080, KVKeyIgnored},
	{"0.8.5", "ba41cc90e8ef", kvFields080, KVKeyIgnored},
	{"0.9.0", "58738772410c", kvFields090, KVKeyRefused},
	{"0.9.1", "b6553be1bc75", kvFields090, KVKeyIgnored},
	{"0.9.2", "a5dd03c1ebc5", kvFields090, KVKeyIgnored},
	{"0.10.0", "6d8d0a24c02b", kvFields090, KVKeyIgnored},
	{"0.10.1", "aab549870df5", kvFields090, KVKeyIgnored}, // v0.10.1.1 1da94e673c25 the same
	{"0.10.2", "01efc7ef7813", kvFields090, KVKeyIgnored},
	{"0.11.0", "b8b302cde434", kvFields090, KVKeyIgnored},
	{"0.11.1", "439368496db4", kvFields111, KVKeyIgnored},
	{"0.11.2", "275de3417065", kvFields111, KVKeyIgnored},
	{"0.12.0", "4fd9d6a85c00", kvFields111, KVKeyIgnored},
	{"0.13.0", "72506c98349d", kvFields130, KVKeyIgnored},
	{"0.14.0", "b17039bccc17", kvFields130, KVKeyIgnored},
	{"0.14.1", "d7de043d55d1", kvFields130, KVKeyIgnored},
	{"0.15.0", "f176443446f6", kvFields130, KVKeyIgnored},
	{"0.15.1", "1892993bc18e", kvFields130, KVKeyIgnored},
	{"0.16.0", "89a77b10846f", kvFields130, KVKeyRefused},
	{"0.17.0", "b31e9326a7d9", kvFields130, KVKeyRefused},
	{"0.17.1", "95c0f928cdee", kvFields130, KVKeyRefused},
	{"0.18.0", "bcf2be961200", kvFields130, KVKeyRefused},
	{"0.18.1", "a26e8dc7ff21", kvFields130, KVKeyRefused},
	{"0.19.0", "2a69949bdadf", kvFields130, KVKeyRefused},
	{"0.19.1", "b1388b1fbf5a", kvFields130, KVKeyRefused},
	{"0.20.0", "88d34c6409e9", kvFields130, KVKeyRefused},
	{"0.20.1", "132765e35606", kvFields130, KVKeyRefused},
	{"0.20.2", "bc150f502991", kvFields130, KVKeyRefused},
	{"0.21.0", "ad7125a431e1", kvFields130, KVKeyRefused},
	{"0.22.0", "0b3ba88f1659", kvFields130, KVKeyRefused},
	{"0.22.1", "0decac0d96c4", kvFields130, KVKeyRefused},
	{"0.23.0", "0fc695fc6d1d", kvFields130, KVKeyRefused},
	{"0.24.0", "ee0da84ab9e0", kvFields130, KVKeyRefused},
}

// KVTransferFields are KVTransferConfig's fields in release v, what the
// release does with another key, and the source read; ok is false when
// the release's tag was not read (before 0.6.5, after 0.24.0, or a release
// the table has no row for).
func KVTransferFields(v Version) (fields []string, effect KVUnknownKeyEffect, source string, ok bool) {
	for _, r := range kvFieldsTable {
		if mustVersion(r.release).Compare(v.Base()) == 0 { // 0.6.6.post1 is row 0.6.6
			file := "vllm/config/kv_transfer.py"
			switch {
			case r.release == "0.10.1":
				file = "vllm/config/__init__.py"
			case mustVersion(r.release).Less(mustVersion("0.10.1")):
				file = "vllm/config.py"
			}
			how := "pydantic's default extra='ignore' drops it"
			switch {
			case r.effect == KVKeyRefused && r.release == "0.9.0":
				how = "KVTransferConfig(**json.loads(value)) raises TypeError, argparse exits"
			case r.effect == KVKeyRefused:
				how = `@config's ConfigDict(extra="forbid"): "Extra inputs are not permitted", argparse exits`
			}
			return r.fields, r.effect, "vllm v" + r.release + " tag " + r.tag + " " + file + " KVTransferConfig; vllm/engine/arg_utils.py: " + how, true
		}
	}
	return nil, 0, "", false
}

// KVTransferFieldsLastRead is the newest release whose KVTransferConfig
// was read.
func KVTransferFieldsLastRead() Version {
	return mustVersion(kvFieldsTable[len(kvFieldsTable)-1].release)
}

// KVTransferFieldSince is the first release read that has the field, ""
// when none has.
func KVTransferFieldSince(name string) string {
	for _, r := range kvFieldsTable {
		for _, f := range r.fields {
			if f == name {
				return r.release
			}
		}
	}
	return ""
}
