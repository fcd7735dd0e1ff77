package codes

import "github.com/vlaunch/vlaunch/diag"

// Generator codes (GENxxx).
const (
	GenUnsafeValue diag.Code = "GEN001"
	GenLayout      diag.Code = "GEN002"
	GenVersion     diag.Code = "GEN003"
	GenAll2All     diag.Code = "GEN004"
	GenSecret      diag.Code = "GEN005"
	GenExtraArg    diag.Code = "GEN006"
	GenTemplate    diag.Code = "GEN007"
	GenIdleGPUs    diag.Code = "GEN008"
	GenRuntime     diag.Code = "GEN009"
	GenNoInterface diag.Code = "GEN010"
	GenUnsupported diag.Code = "GEN011"
	GenModelPath   diag.Code = "GEN012"
	GenModelVolume diag.Code = "GEN013"
	GenRouter      diag.Code = "GEN014"
)

// generatorEntries are the GEN codes in code order.
var generatorEntries = []Entry{
	{GenUnsafeValue, "gen-unsafe-value", diag.Error, "A value that cannot be written safely into the bundle"},
	{GenLayout, "gen-layout", diag.Error, "The layout cannot be placed on the nodes"},
	{GenVersion, "gen-version", diag.Error, "The vLLM version is unparsable or not in vlaunch's table"},
	{GenAll2All, "gen-all2all", diag.Warning, "All-to-all backend choice, fallback or requirement"},
	{GenSecret, "secret-in-env", diag.Error, "A secret in the spec (vllm.env, extra_args, a URL, an image)"},
	{GenExtraArg, "gen-extra-arg", diag.Error, "An extra argument the vLLM release does not know, or one a typed spec field writes"},
	{GenTemplate, "template", diag.Error, "A template cannot be parsed or executed"},
	{GenIdleGPUs, "idle-gpus", diag.Warning, "GPUs or nodes the layout leaves unused"},
	{GenRuntime, "runtime", diag.Error, "A restriction of the chosen runtime (docker, kubernetes), or a hub model downloaded at every pod start"},
	{GenNoInterface, "gen-no-interface", diag.Warning, "Multi-node bundle without a socket interface"},
	{GenUnsupported, "unsupported-setting", diag.Error, "A spec setting the vLLM release cannot express"},
	{GenModelPath, "gen-model-path", diag.Error, "Nothing for vllm serve to load: model.config without model.path"},
	{GenModelVolume, "gen-model-volume", diag.Error, "Kubernetes pods without a volume holding the local model.path"},
	{GenRouter, "gen-router", diag.Error, "A router in front of a colocated deployment that the bundle cannot start"},
}
