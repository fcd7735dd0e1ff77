package generator

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
)

// llm-d.yaml and both pools' LeaderWorkerSets validate against their
// schemas: the InferencePool against the Inference Extension v1.5.0 CRD,
// the HTTPRoute against the Gateway API v1.5.1 CRD, the rest against the
// core kinds (testdata/llmd/README.md).
func TestLLMDManifestsMatchSchemas(t *testing.T) {
	b, _ := generate(t, "pd-llmd", "kubernetes")
	kinds := map[string]int{}
	for _, f := range b.Files {
		if strings.HasSuffix(f.Path, ".yaml") {
			checkKubeSchema(t, f.Path, f.Data)
			for _, k := range manifestKinds(t, f.Data) {
				kinds[k]++
			}
		}
	}
	for k, n := range map[string]int{"LeaderWorkerSet": 2, "Service": 3, "ServiceAccount": 1, "Role": 1, "RoleBinding": 1,
		"ConfigMap": 1, "Deployment": 1, "InferencePool": 1, "HTTPRoute": 1} {
		if kinds[k] != n {
			t.Errorf("%d %s, want %d (all: %v)", kinds[k], k, n, kinds)
		}
	}
}

// manifestKinds lists the kind of every document of a manifest.
func manifestKinds(t *testing.T, data []byte) []string {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []string
	for {
		var doc struct{ Kind string }
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
			return out
		} else if err != nil {
			t.Fatalf("manifest does not parse: %v", err)
		}
		out = append(out, doc.Kind)
	}
}

// TestLLMDSchemaCatchesMistakes: the schemas of llm-d.yaml's kinds can
// fail — misspelt, misplaced and out-of-range fields are reported.
func TestLLMDSchemaCatchesMistakes(t *testing.T) {
	b, _ := generate(t, "pd-llmd", "kubernetes")
	good := string(fileData(t, b, "llm-d.yaml"))
	for _, tt := range []struct{ from, to, want string }{
		{"  targetPorts:\n    - number: 8000", "  targetPorts:\n    - number: 80000", "number"},
		{"  endpointPickerRef:", "  endpointPicker:", "endpointPicker"},
		{"    failureMode: FailOpen", "    failureMode: Open", "failureMode"},
		{"apiVersion: inference.networking.k8s.io/v1", "apiVersion: inference.networking.x-k8s.io/v1alpha2", "apiVersion"},
		{"            type: PathPrefix", "            type: Prefix", "type"},
		{"      timeouts:\n        request: 300s", "      timeout:\n        request: 300s", "timeout"},
		{"  strategy:\n    type: Recreate", "  strategy:\n    type: Replace", "type"},
		{"          livenessProbe:", "          livenesProbe:", "livenesProbe"},
		{"    verbs: [\"get\", \"watch\", \"list\"]", "    verbs: [\"read\"]", "verbs"},
		{"  kind: Role\n  name:", "  kind: Rolle\n  name:", "kind"},
		{"      appProtocol: kubernetes.io/h2c", "      appProtocl: kubernetes.io/h2c", "appProtocl"},
	} {
		bad := strings.Replace(good, tt.from, tt.to, 1)
		if bad == good {
			t.Fatalf("%q not found in llm-d.yaml", tt.from)
		}
		if errs := schemaErrors(t, []byte(bad)); !strings.Contains(errs, tt.want) {
			t.Errorf("%q -> %q: want an error naming %s, got %q", tt.from, tt.to, tt.want, errs)
		}
	}
}

// llmdFacts reads testdata/llmd/llm-d-router-v0.10.0.txt: kind -> names.
func llmdFacts(t *testing.T) map[string]map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "llmd", "llm-d-router-v0.10.0.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) < 3 || !strings.Contains(f[2], ":") {
			t.Fatalf("fact without a source line: %q", line)
		}
		if out[f[0]] == nil {
			out[f[0]] = map[string]bool{}
		}
		out[f[0]][f[1]] = true
	}
	return out
}

// eppConfig mirrors the fields of llm-d-router v0.10.0's EndpointPickerConfig
// vlaunch writes (apix/config/v1alpha1/endpointpickerconfig_types.go:33-178);
// the scheduler decodes it strictly (pkg/epp/config/loader/configloader.go
// decodeRawConfig, serializer.EnableStrict), so an unknown key fails here too.
type eppConfig struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Plugins    []struct {
		Name       string    `yaml:"name"`
		Type       string    `yaml:"type"`
		Parameters yaml.Node `yaml:"parameters"`
	} `yaml:"plugins"`
	SchedulingProfiles []struct {
		Name    string `yaml:"name"`
		Plugins []struct {
			PluginRef string   `yaml:"pluginRef"`
			Weight    *float64 `yaml:"weight"`
		} `yaml:"plugins"`
	} `yaml:"schedulingProfiles"`
}

// disaggParams mirrors DisaggProfileHandlerParameters
// (pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go:73-89),
// which the handler decodes strictly too.
type disaggParams struct {
	StageOrder string `yaml:"stageOrder"`
	Profiles   struct {
		Decode, Prefill, Encode string
	} `yaml:"profiles"`
	Deciders struct {
		Prefill string `yaml:"prefill"`
		Encode  string `yaml:"encode"`
	} `yaml:"deciders"`
}

func strictDecode(n *yaml.Node, v any) error {
	data, err := yaml.Marshal(n)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	return dec.Decode(v)
}

// llmdDocs decodes every document of a manifest.
func llmdDocs(t *testing.T, data []byte) []*yaml.Node {
	t.Helper()
	var out []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); errors.Is(err, io.EOF) {
			return out
		} else if err != nil {
			t.Fatal(err)
		}
		out = append(out, &n)
	}
}

// TestLLMDConfigIsTheRouters: the scheduler configuration uses the
// configuration fields, plugin types, handler parameters and profile names
// llm-d-router v0.10.0 has (testdata/llmd), every plugin reference names a
// declared plugin, and the handler's prefill decider is a decider.
func TestLLMDConfigIsTheRouters(t *testing.T) {
	facts := llmdFacts(t)
	b, _ := generate(t, "pd-llmd", "kubernetes")
	if errs := eppConfigProblems(facts, llmdEPPConfigOf(t, fileData(t, b, "llm-d.yaml"))); len(errs) > 0 {
		t.Error(strings.Join(errs, "\n"))
	}
}

// llmdEPPConfigOf is the EndpointPickerConfig in llm-d.yaml's ConfigMap.
func llmdEPPConfigOf(t *testing.T, manifest []byte) []byte {
	t.Helper()
	for _, n := range llmdDocs(t, manifest) {
		var cm struct {
			Kind string
			Data map[string]string
		}
		if err := n.Decode(&cm); err == nil && cm.Kind == "ConfigMap" {
			if c, ok := cm.Data[llmdConfigFile]; ok {
				return []byte(c)
			}
		}
	}
	t.Fatal("llm-d.yaml has no ConfigMap with " + llmdConfigFile)
	return nil
}

// eppConfigProblems lists what llm-d-router v0.10.0 would refuse in an
// EndpointPickerConfig, or what would leave it without P/D scheduling.
func eppConfigProblems(facts map[string]map[string]bool, data []byte) []string {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return []string{err.Error()}
	}
	var cfg eppConfig
	if err := strictDecode(&root, &cfg); err != nil {
		return []string{"the EndpointPickerConfig: " + err.Error()}
	}
	var out []string
	if !facts["api-version"][cfg.APIVersion] || cfg.Kind != "EndpointPickerConfig" {
		out = append(out, fmt.Sprintf("apiVersion %q kind %q", cfg.APIVersion, cfg.Kind))
	}
	types := map[string]string{} // name -> type; a name defaults to the type (loader/defaults.go:110)
	for _, p := range cfg.Plugins {
		if !facts["plugin"][p.Type] {
			out = append(out, fmt.Sprintf("plugin type %q is not one llm-d-router v0.10.0 registers", p.Type))
		}
		name := p.Name
		if name == "" {
			name = p.Type
		}
		types[name] = p.Type
	}
	handlers := 0
	for _, p := range cfg.Plugins {
		if p.Type != "disagg-profile-handler" {
			continue
		}
		handlers++
		var dp disaggParams
		if err := strictDecode(&p.Parameters, &dp); err != nil {
			out = append(out, "disagg-profile-handler's parameters: "+err.Error())
		} else if d := dp.Deciders.Prefill; !facts["decider"][types[d]] {
			out = append(out, fmt.Sprintf("deciders.prefill %q is not a declared PD decider", d))
		}
	}
	if handlers != 1 {
		out = append(out, fmt.Sprintf("%d disagg-profile-handlers, want 1", handlers))
	}
	profiles := map[string]bool{}
	for _, sp := range cfg.SchedulingProfiles {
		profiles[sp.Name] = true
		filter := false
		for _, r := range sp.Plugins {
			ty, ok := types[r.PluginRef]
			if !ok {
				out = append(out, fmt.Sprintf("profile %s: pluginRef %q names no declared plugin", sp.Name, r.PluginRef))
			}
			if r.Weight != nil && *r.Weight <= 0 {
				out = append(out, fmt.Sprintf("profile %s: %s weight %v", sp.Name, r.PluginRef, *r.Weight))
			}
			filter = filter || ty == sp.Name+"-filter"
		}
		if !filter {
			out = append(out, fmt.Sprintf("profile %s has no %s-filter", sp.Name, sp.Name))
		}
	}
	for p := range facts["profile"] {
		if !profiles[p] {
			out = append(out, fmt.Sprintf("no %s profile (disagg-profile-handler runs the profiles named prefill and decode)", p))
		}
	}
	return out
}

// TestLLMDConfigCheckCanFail: the configuration check rejects what the
// scheduler would (an unknown field, an unregistered type, a dangling
// reference, a decider that is not one).
func TestLLMDConfigCheckCanFail(t *testing.T) {
	facts := llmdFacts(t)
	b, _ := generate(t, "pd-llmd", "kubernetes")
	good := string(llmdEPPConfigOf(t, fileData(t, b, "llm-d.yaml")))
	for _, tt := range []struct{ from, to string }{
		{"schedulingProfiles:", "schedulingProfile:"},
		{"- type: queue-scorer", "- type: queue-depth-scorer"},
		{"- pluginRef: max-score-picker", "- pluginRef: max-picker"},
		{"prefill: always-disagg-pd-decider", "prefill: queue-scorer"},
		{"deciders:", "decider:"},
		{"- name: decode", "- name: decoding"},
		{"apiVersion: llm-d.ai/v1alpha1", "apiVersion: llm-d.ai/v1"},
	} {
		bad := strings.Replace(good, tt.from, tt.to, 1)
		if bad == good {
			t.Fatalf("%q not in the configuration", tt.from)
		}
		if errs := eppConfigProblems(facts, []byte(bad)); len(errs) == 0 {
			t.Errorf("%q -> %q passes", tt.from, tt.to)
		}
	}
}

// dig walks a decoded YAML document by keys and list indexes.
func dig(v any, path ...any) any {
	for _, k := range path {
		switch key := k.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[key]
		case int:
			l, _ := v.([]any)
			if key >= len(l) {
				return nil
			}
			v = l[key]
		}
	}
	return v
}

// docsByKind decodes a manifest's documents, by kind (the last of a kind wins).
func docsByKind(t *testing.T, data []byte) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, n := range llmdDocs(t, data) {
		var m map[string]any
		if err := n.Decode(&m); err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprint(m["kind"])] = m
	}
	return out
}

// flagValues splits --flag=value arguments, failing on a flag the
// program does not define.
func flagValues(t *testing.T, who string, known map[string]bool, args []any) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, a := range args {
		name, value, ok := strings.Cut(strings.TrimPrefix(fmt.Sprint(a), "--"), "=")
		if !ok || !known[name] {
			t.Errorf("%s: %q is not a --flag=value of a flag llm-d-router v0.10.0 defines", who, a)
		}
		out[name] = value
	}
	return out
}

// enginePort is the --port of the engine command in a pool's leader pod.
func enginePort(t *testing.T, lws map[string]any) string {
	t.Helper()
	cmd := fmt.Sprint(dig(lws, "spec", "leaderWorkerTemplate", "leaderTemplate", "spec", "containers", 0, "command", 2))
	_, rest, ok := strings.Cut(cmd, "--port ")
	if !ok {
		t.Fatalf("no --port in %q", cmd)
	}
	return strings.Fields(rest)[0]
}

// TestLLMDWiring: the pieces agree with each other and with the flags the
// router's programs define. The sidecar listens on the InferencePool's
// target port and forwards to the decode engine's port; the prefill
// engines serve the target port; the pool selects both pools' leaders,
// each labelled with its llm-d role; the EPP serves the pool and reads the
// ConfigMap it mounts; the HTTPRoute sends to the pool.
func TestLLMDWiring(t *testing.T) {
	facts := llmdFacts(t)
	b, _ := generate(t, "pd-llmd", "kubernetes")
	top := docsByKind(t, fileData(t, b, "llm-d.yaml"))
	pool := top["InferencePool"]
	target := fmt.Sprint(dig(pool, "spec", "targetPorts", 0, "number"))
	lws := map[string]map[string]any{}
	for _, role := range []string{"prefill", "decode"} {
		lws[role] = docsByKind(t, fileData(t, b, role+"/lws.yaml"))["LeaderWorkerSet"]
		labels, _ := dig(lws[role], "spec", "leaderWorkerTemplate", "leaderTemplate", "metadata", "labels").(map[string]any)
		for k, v := range dig(pool, "spec", "selector", "matchLabels").(map[string]any) {
			if labels[k] != v {
				t.Errorf("%s leaders lack the pool's label %s=%v: %v", role, k, v, labels)
			}
		}
		for k := range facts["role-label"] {
			if labels[k] != role {
				t.Errorf("%s leaders: %s=%v", role, k, labels[k])
			}
		}
	}
	if p := enginePort(t, lws["prefill"]); p != target {
		t.Errorf("prefill engines on %s, the pool's target port %s", p, target)
	}
	sidecar := dig(lws["decode"], "spec", "leaderWorkerTemplate", "leaderTemplate", "spec", "initContainers", 0)
	if dig(sidecar, "restartPolicy") != "Always" {
		t.Error("the routing sidecar is not a native sidecar")
	}
	sf := flagValues(t, "sidecar", facts["sidecar-flag"], dig(sidecar, "args").([]any))
	if sf["port"] != target || sf["model-server-port"] != enginePort(t, lws["decode"]) || !facts["sidecar-kv-connector"][sf["kv-connector"]] || sf["secure-proxy"] != "false" {
		t.Errorf("sidecar flags %v: want --port %s, --model-server-port the decode engine's %s, a KV connector it knows, plain HTTP",
			sf, target, enginePort(t, lws["decode"]))
	}
	if dig(lws["prefill"], "spec", "leaderWorkerTemplate", "leaderTemplate", "spec", "initContainers") != nil {
		t.Error("prefill pods run a sidecar")
	}
	epp := dig(top["Deployment"], "spec", "template", "spec", "containers", 0)
	ef := flagValues(t, "endpoint picker", facts["epp-flag"], dig(epp, "args").([]any))
	if ef["pool-name"] != dig(pool, "metadata", "name") || ef["pool-namespace"] != dig(pool, "metadata", "namespace") {
		t.Errorf("EPP serves %s/%s, the pool is %v/%v", ef["pool-namespace"], ef["pool-name"], dig(pool, "metadata", "namespace"), dig(pool, "metadata", "name"))
	}
	if want := fmt.Sprint(dig(epp, "volumeMounts", 0, "mountPath")) + "/" + llmdConfigFile; ef["config-file"] != want ||
		dig(top["Deployment"], "spec", "template", "spec", "volumes", 0, "configMap", "name") != dig(top["ConfigMap"], "metadata", "name") {
		t.Errorf("EPP reads %s, not the mounted ConfigMap's %s", ef["config-file"], want)
	}
	if dig(pool, "spec", "endpointPickerRef", "name") != dig(top["Service"], "metadata", "name") ||
		dig(pool, "spec", "endpointPickerRef", "port", "number") != dig(top["Service"], "spec", "ports", 0, "port") {
		t.Error("the pool's endpointPickerRef is not the EPP's Service and gRPC port")
	}
	if dig(top["HTTPRoute"], "spec", "rules", 0, "backendRefs", 0, "name") != dig(pool, "metadata", "name") {
		t.Error("the HTTPRoute does not send to the pool")
	}
	if dig(top["RoleBinding"], "subjects", 0, "name") != dig(top["Deployment"], "spec", "template", "spec", "serviceAccountName") {
		t.Error("the EPP's ServiceAccount is not the bound one")
	}
}

// TestLLMDBundleLints: `vlaunch lint` reads the bundle without a warning —
// the routing sidecar beside the decode engine is not taken for an engine,
// and llm-d.yaml starts none.
func TestLLMDBundleLints(t *testing.T) {
	d := loadSpec(t, "pd-llmd")
	b, ds := gen(t, d, Options{Runtime: "kubernetes"})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	for _, g := range lintBundle(t, d, b) {
		if g.Severity >= diag.Warning {
			t.Error(g)
		}
	}
}

// TestLLMDNeedsKubernetes: on bare metal and Docker llm-d's router is
// refused (GEN009) at the router's kind, and nothing is written.
func TestLLMDNeedsKubernetes(t *testing.T) {
	for _, rt := range []string{"bare", "docker"} {
		b, ds := gen(t, loadSpec(t, "pd-llmd"), Options{Runtime: rt})
		if b != nil || len(ds) != 1 || ds[0].Code != CodeRuntime || ds[0].Path != "disaggregation.router.kind" || ds[0].Line == 0 {
			t.Errorf("%s: bundle %v, findings %v", rt, b != nil, ds)
		}
	}
}

// TestLLMDDecodePort: the decode engines move to router.decode_port and the
// sidecar follows; the prefill engines and the pool keep vllm.port.
func TestLLMDDecodePort(t *testing.T) {
	d := loadSpec(t, "pd-llmd")
	d.Disaggregation.Router.DecodePort = 9300
	d.VLLM.Port = 8100
	b, ds := gen(t, d, Options{Runtime: "kubernetes"})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	dec := docsByKind(t, fileData(t, b, "decode/lws.yaml"))["LeaderWorkerSet"]
	pre := docsByKind(t, fileData(t, b, "prefill/lws.yaml"))["LeaderWorkerSet"]
	args := fmt.Sprint(dig(dec, "spec", "leaderWorkerTemplate", "leaderTemplate", "spec", "initContainers", 0, "args"))
	if enginePort(t, dec) != "9300" || enginePort(t, pre) != "8100" || args != "[--port=8100 --model-server-port=9300 --kv-connector=nixlv2 --secure-proxy=false]" {
		t.Errorf("decode engine %s, prefill engine %s, sidecar %s", enginePort(t, dec), enginePort(t, pre), args)
	}
	pool := docsByKind(t, fileData(t, b, "llm-d.yaml"))["InferencePool"]
	if fmt.Sprint(dig(pool, "spec", "targetPorts", 0, "number")) != "8100" {
		t.Errorf("pool target %v", dig(pool, "spec", "targetPorts"))
	}
}

// TestLLMDWideEP: the wide-EP P/D fixture (multi-node DP 16 instances on
// host networking) behind llm-d: only each group's leader serves the API,
// so only the leaders carry the sidecar and the pool's labels; the bundle
// validates, lints and passes validate's port check (sidecar and engine on
// distinct host ports).
func TestLLMDWideEP(t *testing.T) {
	d := loadSpec(t, "pd-wideep")
	d.Disaggregation.Router = spec.Router{Kind: spec.RouterKindLLMD}
	spec.ApplyDefaults(d)
	b, ds := validated(t, d, Options{Runtime: "kubernetes"})
	if ds.HasErrors() || b == nil {
		t.Fatal(ds)
	}
	for _, g := range ds {
		if g.Severity >= diag.Warning && strings.Contains(g.Message, "router") {
			t.Error(g)
		}
	}
	for _, f := range b.Files {
		if strings.HasSuffix(f.Path, ".yaml") {
			checkKubeSchema(t, f.Path, f.Data)
		}
	}
	dec := docsByKind(t, fileData(t, b, "decode/lws.yaml"))["LeaderWorkerSet"]
	if dig(dec, "spec", "leaderWorkerTemplate", "size") != 2 || dig(dec, "spec", "leaderWorkerTemplate", "leaderTemplate", "spec", "hostNetwork") != true {
		t.Fatalf("fixture changed: want 2-node groups on host networking")
	}
	if dig(dec, "spec", "leaderWorkerTemplate", "workerTemplate", "spec", "initContainers") != nil || dig(dec, "spec", "leaderWorkerTemplate", "workerTemplate", "metadata") != nil {
		t.Error("a worker pod carries the sidecar or the pool's labels")
	}
	for _, g := range lintBundle(t, d, b) {
		if g.Severity >= diag.Warning {
			t.Error(g)
		}
	}
}

// TestLLMDReadmeVersions: the versions the README tells users to install
// are the ones the tests validate against.
func TestLLMDReadmeVersions(t *testing.T) {
	for file, v := range map[string]string{"lws/README.md": "**" + LWSVersion + "**", "llmd/README.md": "**" + GAIEVersion + "**"} {
		data, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil || !strings.Contains(string(data), v) {
			t.Errorf("testdata/%s does not name %s (%v)", file, v, err)
		}
	}
	if data, _ := os.ReadFile(filepath.Join("testdata", "llmd", "README.md")); !strings.Contains(string(data), "**"+GatewayAPIVersion+"**") {
		t.Errorf("testdata/llmd/README.md does not name the Gateway API %s", GatewayAPIVersion)
	}
	b, _ := generate(t, "pd-llmd", "kubernetes")
	r := string(fileData(t, b, "README.md"))
	for _, v := range []string{"lws/releases/download/" + LWSVersion + "/", "gateway-api/releases/download/" + GatewayAPIVersion + "/",
		"gateway-api-inference-extension/releases/download/" + GAIEVersion + "/"} {
		if !strings.Contains(r, v) {
			t.Errorf("README lacks %s", v)
		}
	}
}

// runsOn reports whether a fixture generates for a runtime: llm-d's
// router is Kubernetes only (TestLLMDNeedsKubernetes).
func runsOn(d *spec.Deployment, runtime string) bool {
	return d.Disaggregation == nil || !d.Disaggregation.Router.LLMD() || runtime == "kubernetes"
}

// TestLLMDHostileImages: images with quotes, newlines and "$(" reach the
// manifests as written (YAML-quoted, kubelet-escaped in args) and the
// README on one line; llm-d.yaml and the decode LeaderWorkerSet still parse.
func TestLLMDHostileImages(t *testing.T) {
	d := loadSpec(t, "pd-llmd")
	epp, side := "reg.example/epp:\"x\"\n  evil: $(id)", "reg.example/sc:1'\n- y"
	d.Disaggregation.Router.Image, d.Disaggregation.Router.SidecarImage = epp, side
	b, ds := gen(t, d, Options{Runtime: "kubernetes"})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	top := docsByKind(t, fileData(t, b, "llm-d.yaml"))
	if got := dig(top["Deployment"], "spec", "template", "spec", "containers", 0, "image"); got != epp {
		t.Errorf("EPP image %q", got)
	}
	dec := docsByKind(t, fileData(t, b, "decode/lws.yaml"))["LeaderWorkerSet"]
	if got := dig(dec, "spec", "leaderWorkerTemplate", "leaderTemplate", "spec", "initContainers", 0, "image"); got != side {
		t.Errorf("sidecar image %q", got)
	}
	for _, line := range strings.Split(string(fileData(t, b, "README.md")), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "evil:") || strings.HasPrefix(line, "- y") {
			t.Errorf("an image broke the README's lines: %q", line)
		}
	}
}
