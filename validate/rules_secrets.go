package validate

import (
	"sort"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
	"gopkg.in/yaml.v3"
)

// secretHint says where credentials go instead of the spec.
const secretHint = "remove it and export it where the scripts start: they pass HF_TOKEN and VLLM_API_KEY through from the environment (on Kubernetes, from Secrets)"

// checkSecrets reports credentials in the spec, by the one rule generate
// and lint apply too (vllm.SecretEnv, SecretFlag, FindSecrets): a
// vllm.env variable whose name says it holds one, an extra_args option
// that takes one, and — in the spec's own checker, once for the document —
// a credential anywhere in any value (a URL's password in model.path, a
// token in runtime.image, ...). A spec, and every bundle made from it, is
// copied, committed and pasted into tickets, so a credential in it leaks.
// No message shows the credential: values are shown masked.
func checkSecrets(c *checker) {
	keys := make([]string, 0, len(c.d.VLLM.Env))
	for k := range c.d.VLLM.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if vllm.SecretEnv(k) {
			c.addAt(true, diag.Error, CodeSecret, p("vllm", "env", k), secretHint,
				"vllm.env sets %s, a credential; it would be written into every launch script", k)
		}
	}
	for _, a := range vllm.SecretArgs(c.d.VLLM.ExtraArgs) {
		c.errorf(CodeSecret, p("vllm", "extra_args", a.Value), secretArgHint(a.Env),
			"%s is given a credential in vllm.extra_args; it would be written into every launch script", a.Name)
	}
	if c.roleName == "" && c.d.Root != nil {
		walkScalars(c.d.Root, nil, func(path []string, key bool, v string) {
			if nameReported(c.d.Root, path, key) {
				return
			}
			kinds := vllm.SecretKinds(v)
			if kinds == "" {
				return
			}
			what := "the value"
			if key {
				what = "the key"
			}
			c.addAt(key, diag.Error, CodeSecret, path, secretValueHint(kinds),
				"%s of %s holds %s (%s); it would be written into the launch scripts and README",
				what, spec.PathString(path), kinds, vllm.MaskSecrets(v))
		})
	}
}

// nameReported: a vllm.env value (top level or a pool's) whose variable
// name is a credential's is reported once, at the name, and an extra_args
// option given a credential ("--hf-token VALUE", "--api-key=VALUE") once,
// at the value, as the option's.
func nameReported(root *yaml.Node, path []string, key bool) bool {
	n := len(path)
	if key || n < 2 {
		return false
	}
	if path[n-2] == "env" {
		return vllm.SecretEnv(path[n-1])
	}
	i, err := strconv.Atoi(path[n-1])
	if path[n-2] != "extra_args" || err != nil {
		return false
	}
	seq, ok := spec.NodeAt(root, path[:n-1], false)
	if !ok || seq.Kind != yaml.SequenceNode {
		return false
	}
	words := make([]string, len(seq.Content))
	for j, w := range seq.Content {
		words[j] = w.Value
	}
	return vllm.SecretArgWord(words, i)
}

// secretArgHint says where the credential of an option goes instead: the
// variable vLLM (or, for HF_TOKEN, huggingface_hub) reads, which every
// bundle passes through from the environment it starts in.
func secretArgHint(env string) string {
	return "remove the option and its value, and export " + env + " where the scripts start: the bundles pass it through to vLLM " +
		"(bare metal and Docker: from the shell's environment; Kubernetes: from a Secret the manifest's header names)"
}

// secretValueHint says where each kind of credential goes instead.
func secretValueHint(kinds string) string {
	switch {
	case strings.Contains(kinds, "URL"):
		return "remove the user name and password from the URL and give them through the environment the scripts start in " +
			"(HF_TOKEN for the Hugging Face hub, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY for S3, `docker login` for a registry)"
	case strings.Contains(kinds, "GitHub"), strings.Contains(kinds, "GitLab"):
		return "remove it: log in to the registry where the scripts run (`docker login`; on Kubernetes an imagePullSecret) instead"
	}
	return secretHint
}

// walkScalars calls f with every scalar of the document as written (keys
// too, key true), with its path; aliases are not followed, so a value is
// visited once, where it is written.
func walkScalars(n *yaml.Node, path []string, f func(path []string, key bool, v string)) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			walkScalars(c, path, f)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			kp := append(append([]string{}, path...), k.Value)
			if k.Kind == yaml.ScalarNode {
				f(kp, true, k.Value)
			}
			walkScalars(v, kp, f)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			walkScalars(c, append(append([]string{}, path...), strconv.Itoa(i)), f)
		}
	case yaml.ScalarNode:
		f(path, false, n.Value)
	}
}
