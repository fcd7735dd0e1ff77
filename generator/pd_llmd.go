package generator

import (
	"bytes"
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// llm-d's router on Kubernetes (disaggregation.router.kind llm-d): the
// endpoint picker (EPP) behind a Gateway API Inference Extension
// InferencePool, and llm-d's routing sidecar in front of every decode
// engine. A request reaches the Gateway, whose HTTPRoute sends it to the
// InferencePool; the EPP picks a decode endpoint and a prefill endpoint and
// puts the latter in the x-prefiller-host-port header; the decode pod's
// sidecar sends the prefill leg there, then the decode leg, with the
// kv_transfer_params the prefill returned, to its own engine.
//
// Everything below is what llm-d's router release spec.LLMDRouterRelease
// accepts, read in its source: llm-d/llm-d-router@71f4f0999f95b96c49a9d0c4afbd18dfdb943c26
// (tag v0.10.0), cited as "llm-d-router@71f4f099:path". generator/testdata/llmd
// records the plugin types, flags and CRD schemas the tests hold the bundle to.

// GAIEVersion is the Gateway API Inference Extension release whose
// InferencePool (inference.networking.k8s.io/v1) the bundle writes: the
// one llm-d-router v0.10.0 installs (deploy/components/crds-gie/kustomization.yaml,
// releases/download/v1.5.0/v1-manifests.yaml).
const GAIEVersion = "v1.5.0"

// GatewayAPIVersion is the Gateway API release whose HTTPRoute
// (gateway.networking.k8s.io/v1) the bundle writes: the one llm-d-router
// v0.10.0 installs (deploy/components/crds-gateway-api/kustomization.yaml,
// config/crd?ref=v1.5.1).
const GatewayAPIVersion = "v1.5.1"

// LWSVersion is the LeaderWorkerSet release whose CRD the pools'
// manifests are validated against (testdata/lws/README.md), the one the
// llm-d README names.
const LWSVersion = "v0.10.0"

// LLMDGateway is the Gateway the HTTPRoute attaches to: the name llm-d's
// guides give the one Gateway all of them share
// (llm-d@027a0532:guides/pd-disaggregation/README.md, "Gateway Mode").
const LLMDGateway = "llm-d-inference-gateway"

// llm-d's pod labels. The prefill-filter and decode-filter plugins select
// endpoints by llm-d.ai/role (llm-d-router@71f4f099:pkg/epp/framework/
// plugins/scheduling/filter/bylabel/roles.go: RoleLabel, RolePrefill,
// RoleDecode; a pod without the label counts as decode).
const (
	llmdRoleLabel = "llm-d.ai/role"
	// llmdPartOf marks every API pod of the deployment, the InferencePool's
	// selector (with the LeaderWorkerSet's role: leader, the pods that
	// serve the API).
	llmdPartOf = "app.kubernetes.io/part-of"
)

// llmdConfigFile is the EPP configuration's key in its ConfigMap.
const llmdConfigFile = "pd-config.yaml"

// LLMDPlan is llm-d's part of the bundle, written to llm-d.yaml.
type LLMDPlan struct {
	Release string
	// Pool, EPP and Route name the InferencePool, the EPP's Deployment,
	// Service, ConfigMap, ServiceAccount and Role, and the HTTPRoute.
	Pool, EPP, Route, Gateway string
	// PartOf is the llmdPartOf label value on every pool's API pods.
	PartOf, PartOfLabel string
	// TargetPort is the InferencePool's target port: vllm.port, the prefill
	// engines' and the decode sidecars'; DecodePort the decode engines'.
	TargetPort, DecodePort int
	EPPImage, SidecarImage string
	// EPPArgs and SidecarArgs are the containers' arguments.
	EPPArgs, SidecarArgs []string
	// ConfigFile and Config are the EndpointPickerConfig's file name and YAML.
	ConfigFile, Config                         string
	GAIEVersion, GatewayAPIVersion, LWSVersion string
}

// makeLLMDPlan is llm-d's plan for a bundle named name.
func makeLLMDPlan(r resolve.Router, name, namespace string, vllmPort int) (*LLMDPlan, error) {
	cfg, err := llmdEPPConfig()
	if err != nil {
		return nil, err
	}
	pool := k8sName(name)
	lp := &LLMDPlan{Release: spec.LLMDRouterRelease, Pool: pool, EPP: k8sName(name + "-epp"), Route: pool, Gateway: LLMDGateway,
		PartOf: pool, PartOfLabel: llmdPartOf, TargetPort: vllmPort, DecodePort: r.DecodePort,
		EPPImage: r.Image, SidecarImage: r.SidecarImage, ConfigFile: llmdConfigFile, Config: cfg,
		GAIEVersion: GAIEVersion, GatewayAPIVersion: GatewayAPIVersion, LWSVersion: LWSVersion}
	lp.EPPArgs = llmdEPPArgs(lp, namespace)
	lp.SidecarArgs = llmdSidecarArgs(lp)
	return lp, nil
}

// llmdEPPArgs are the endpoint picker's flags, as the llm-d-router-gateway
// chart passes them (llm-d-router@71f4f099:config/charts/routerlib/templates/
// _deployment.yaml) and pkg/epp/server/options.go defines them: the
// InferencePool it serves, its configuration file, and tracing off (the
// flag defaults to true, and the bundle sets up no OpenTelemetry
// collector). The gRPC ports keep their defaults: ext-proc 9002, health
// 9003, metrics 9090 (options.go DefaultGrpcPort, NewOptions).
func llmdEPPArgs(lp *LLMDPlan, namespace string) []string {
	return []string{"--pool-name=" + lp.Pool, "--pool-namespace=" + namespace, "--config-file=/config/" + lp.ConfigFile, "--tracing=false"}
}

// llmdSidecarArgs are the routing sidecar's flags
// (llm-d-router@71f4f099:pkg/sidecar/proxy/options.go): it listens on the
// pool's target port and forwards to the decode engine on DecodePort
// (--model-server-port; --vllm-port is its deprecated alias), speaks
// vLLM's NIXL protocol (--kv-connector nixlv2, pkg/sidecar/constants), and
// serves plain HTTP (--secure-proxy defaults to true, a self-signed TLS
// listener the Gateway, which sends the InferencePool's default appProtocol
// http, cannot talk to; llm-d's wide-EP guide sets it false,
// llm-d@03da3b00:guides/wide-ep-lws/manifests/modelserver/base/decode.yaml).
// --data-parallel-size stays 1: each decode instance serves one API port
// (vLLM's internal DP load balancing), not one per rank.
func llmdSidecarArgs(lp *LLMDPlan) []string {
	return []string{"--port=" + strconv.Itoa(lp.TargetPort), "--model-server-port=" + strconv.Itoa(lp.DecodePort),
		"--kv-connector=nixlv2", "--secure-proxy=false"}
}

// eppPlugin and eppProfile are the EndpointPickerConfig's plugin and
// scheduling-profile entries (llm-d-router@71f4f099:apix/config/v1alpha1/
// endpointpickerconfig_types.go: PluginSpec, SchedulingProfile,
// SchedulingPlugin).
type eppPlugin struct {
	Type       string         `yaml:"type"`
	Parameters map[string]any `yaml:"parameters,omitempty"`
}

type eppProfile struct {
	Name    string       `yaml:"name"`
	Plugins []eppProfRef `yaml:"plugins"`
}

type eppProfRef struct {
	PluginRef string   `yaml:"pluginRef"`
	Weight    *float64 `yaml:"weight,omitempty"`
}

// llmdEPPConfig is the P/D scheduling configuration: the sample
// llm-d-router v0.10.0 ships for P/D (deploy/config/pd-epp-config.yaml:
// prefix-cache and queue scorers weighted 2:1 behind the role filters, a
// max-score picker, disagg-profile-handler) with the always-disagg-pd-decider
// llm-d's P/D guide uses (llm-d@83bb7c18:guides/pd-disaggregation/router/
// pd-disaggregation.values.yaml) in place of the sample's
// prefix-based-pd-decider: every request is prefilled on the prefill pool,
// which is what `vlaunch check` models. disagg-profile-handler needs a
// prefix-cache producer and scorer in both profiles (its README,
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/README.md).
// A plugin's name defaults to its type.
func llmdEPPConfig() (string, error) {
	w := func(v float64) *float64 { return &v }
	profile := func(role string) eppProfile {
		return eppProfile{Name: role, Plugins: []eppProfRef{{PluginRef: role + "-filter"}, {PluginRef: "max-score-picker"},
			{PluginRef: "prefix-cache-scorer", Weight: w(2)}, {PluginRef: "queue-scorer", Weight: w(1)}}}
	}
	cfg := struct {
		APIVersion string       `yaml:"apiVersion"`
		Kind       string       `yaml:"kind"`
		Plugins    []eppPlugin  `yaml:"plugins"`
		Profiles   []eppProfile `yaml:"schedulingProfiles"`
	}{
		// apix/config/v1alpha1/doc.go (+groupName=llm-d.ai); the older
		// inference.networking.x-k8s.io/v1alpha1 is deprecated
		// (pkg/epp/config/loader/configloader.go).
		APIVersion: "llm-d.ai/v1alpha1", Kind: "EndpointPickerConfig",
		Plugins: []eppPlugin{
			{Type: "approx-prefix-cache-producer"},
			{Type: "prefix-cache-scorer"},
			{Type: "queue-scorer"},
			{Type: "prefill-filter"},
			{Type: "decode-filter"},
			{Type: "max-score-picker"},
			{Type: "always-disagg-pd-decider"},
			{Type: "disagg-profile-handler", Parameters: map[string]any{"deciders": map[string]any{"prefill": "always-disagg-pd-decider"}}},
		},
		Profiles: []eppProfile{profile(spec.RolePrefill), profile(spec.RoleDecode)},
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(cfg); err != nil {
		return "", fmt.Errorf("llm-d scheduler configuration: %w", err)
	}
	if err := enc.Close(); err != nil {
		return "", fmt.Errorf("llm-d scheduler configuration: %w", err)
	}
	return buf.String(), nil
}

// addLLMDPool puts llm-d's labels on a pool's API pods and, on the decode
// pool, the routing sidecar in front of the engine.
func addLLMDPool(p *Plan, role string, lp *LLMDPlan) {
	if p.Kube == nil {
		return
	}
	p.Kube.LeaderLabels = []KubeLabel{{Name: llmdRoleLabel, Value: role}, {Name: lp.PartOfLabel, Value: lp.PartOf}}
	if role == spec.RoleDecode {
		p.Kube.Sidecar = &KubeSidecar{Name: "routing-proxy", Image: lp.SidecarImage, Args: lp.SidecarArgs, Port: lp.TargetPort}
	}
}

// KubeLabel is a label of the LeaderWorkerSet's leader pods.
type KubeLabel struct{ Name, Value string }

// KubeSidecar is a container beside the leader's engine: an init container
// with restartPolicy Always (a Kubernetes native sidecar, started before
// the engine and kept running), as llm-d's guides run the routing proxy.
type KubeSidecar struct {
	Name, Image string
	Args        []string
	Port        int
}

// llmdRuntime: llm-d's router is Kubernetes workloads and resources
// (GEN009 on another runtime).
func llmdRuntime(r *resolve.Deployment, runtime string) diag.Diagnostics {
	if runtime == "kubernetes" {
		return nil
	}
	return diag.Diagnostics{gdiag(r.Spec, CodeRuntime, diag.Error, "disaggregation.router.kind",
		fmt.Sprintf("router kind %s runs on Kubernetes only, not on the %s runtime", spec.RouterKindLLMD, runtime),
		"generate with --runtime kubernetes, or use router kind "+spec.RouterKindVLLM+" on bare metal and Docker")}
}

// renderLLMD renders the README's llm-d section and llm-d.yaml.
func renderLLMD(l loader, pp *PDPlan) (section, manifest []byte, err error) {
	data := templateData{Plan: pp.Roles[0].Plan, PD: pp}
	if section, err = l.render("pd/llmd-readme.md.tmpl", data); err != nil {
		return nil, nil, err
	}
	if manifest, err = l.render("pd/llmd.yaml.tmpl", data); err != nil {
		return nil, nil, err
	}
	return section, manifest, nil
}
