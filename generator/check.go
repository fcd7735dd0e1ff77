package generator

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
	"gopkg.in/yaml.v3"
)

// Diagnostic codes. GEN001 (unsafe names and values), GEN003 (version) and
// GEN010 (no socket interface) are retired: they re-raised what validate
// reports once, with positions (SPEC111-SPEC114, SPEC117, SPEC115).
const (
	CodeLayout   = codes.GenLayout   // the layout does not fit the nodes
	CodeAll2All  = codes.GenAll2All  // all-to-all backend choice or fallback
	CodeSecret   = codes.GenSecret   // a secret in vllm.env or vllm.extra_args
	CodeExtraArg = codes.GenExtraArg // extra_args the release does not know
	CodeTemplate = codes.GenTemplate // template parse/execute error
	CodeIdleGPUs = codes.GenIdleGPUs // GPUs left unused by the layout
	CodeRuntime  = codes.GenRuntime  // runtime-specific restriction
	// CodeModelPath: the model comes from model.config alone, so the
	// bundle would have no checkpoint for vllm serve to load.
	CodeModelPath = codes.GenModelPath
	// CodeModelVolume: a local model.path on Kubernetes with no volume
	// (or two) giving the pods that directory.
	CodeModelVolume = codes.GenModelVolume
)

// checkSecrets refuses credentials in the spec, by the rule validate and
// lint apply too (vllm.SecretEnv, SecretFlag, FindSecrets): a vllm.env
// variable named as one, an extra_args option taking one, and a credential
// anywhere in any value (a password in model.path's URL, a registry token
// in runtime.image, a token in an env value or argument). Bundles read
// credentials from the environment they are started in (Kubernetes: from
// Secrets), so they never land on disk; the refusal comes before anything
// is rendered, and its message shows the value masked. (Names, addresses
// and values that could break out of the generated files are validate's:
// SPEC111-SPEC114.)
//
// withDoc walks the whole document too; the plan of each candidate
// (makePlan, thousands for plan's search of a 10,000-node spec) checks the
// struct's fields only, the document's values being the same for every
// candidate and checked once, by validate and by Generate.
func checkSecrets(d *spec.Deployment, withDoc bool) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, k := range sortedKeys(d.VLLM.Env) {
		if vllm.SecretEnv(k) {
			ds = append(ds, gdiag(d, CodeSecret, diag.Error, "vllm.env."+k, fmt.Sprintf("%s looks like a secret; vlaunch never writes secrets into launch files", k),
				"remove it from the spec and export it where the scripts start (they pass HF_TOKEN and VLLM_API_KEY through; on Kubernetes they come from Secrets)"))
		}
	}
	for _, a := range vllm.SecretArgs(d.VLLM.ExtraArgs) {
		ds = append(ds, gdiag(d, CodeSecret, diag.Error, fmt.Sprintf("vllm.extra_args[%d]", a.Value), fmt.Sprintf("%s is given a secret; vlaunch never writes secrets into launch files", a.Name),
			fmt.Sprintf("remove the option and its value, and export %s where the scripts start (the scripts pass it through to vLLM; on Kubernetes it comes from a Secret)", a.Env)))
	}
	for _, v := range specValues(d, withDoc) {
		kinds := vllm.SecretKinds(v.text)
		if kinds == "" || reportedByName(v.path, func(seq []string) []string { return listAt(d, seq) }) {
			continue
		}
		ds = append(ds, gdiag(d, CodeSecret, diag.Error, spec.PathString(v.path),
			fmt.Sprintf("%s holds %s (%s); vlaunch never writes secrets into launch files", spec.PathString(v.path), kinds, vllm.MaskSecrets(v.text)),
			"remove it from the spec and give it through the environment the scripts start in (HF_TOKEN for the Hugging Face hub, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY for S3, `docker login` or an imagePullSecret for a registry)"))
	}
	return ds
}

// reportedByName: a value checkSecrets reports by its variable's name
// (vllm.env, a pool's too) or its option (--hf-token VALUE, --api-key=VALUE)
// is not reported again. args are the words of the extra_args list the
// value is in.
func reportedByName(path []string, args func([]string) []string) bool {
	n := len(path)
	if n < 2 {
		return false
	}
	if path[n-2] == "env" {
		return vllm.SecretEnv(path[n-1])
	}
	i, err := strconv.Atoi(path[n-1])
	return path[n-2] == "extra_args" && err == nil && vllm.SecretArgWord(args(path[:n-1]), i)
}

// listAt returns the words of the sequence at path: the document's when
// it holds one there, else vllm.extra_args of the struct (the fields
// specValues adds).
func listAt(d *spec.Deployment, path []string) []string {
	if d.Root != nil {
		if seq, ok := spec.NodeAt(d.Root, path, false); ok && seq.Kind == yaml.SequenceNode {
			words := make([]string, len(seq.Content))
			for i, w := range seq.Content {
				words[i] = w.Value
			}
			return words
		}
	}
	return d.VLLM.ExtraArgs
}

// specValue is one value of the spec and its path.
type specValue struct {
	path []string
	text string
}

// specValues lists the spec's values: with withDoc every scalar of the
// document as written (keys too; aliases not followed, so each once), then the fields
// the bundle writes out as the struct holds them (a library caller may
// have set them without a document), each text once, at the first path it
// was seen at.
func specValues(d *spec.Deployment, withDoc bool) []specValue {
	var out []specValue
	seen := map[string]bool{}
	add := func(path []string, text string) {
		if text != "" && !seen[text] {
			seen[text] = true
			out = append(out, specValue{path, text})
		}
	}
	var walk func(n *yaml.Node, path []string)
	walk = func(n *yaml.Node, path []string) {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, path)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				kp := append(append([]string{}, path...), n.Content[i].Value)
				if n.Content[i].Kind == yaml.ScalarNode {
					add(kp, n.Content[i].Value)
				}
				walk(n.Content[i+1], kp)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, append(append([]string{}, path...), strconv.Itoa(i)))
			}
		case yaml.ScalarNode:
			add(path, n.Value)
		}
	}
	if withDoc && d.Root != nil {
		walk(d.Root, nil)
	}
	add([]string{"model", "path"}, d.Model.Path)
	add([]string{"model", "config"}, d.Model.Config)
	add([]string{"model", "served_name"}, d.Model.ServedName)
	add([]string{"runtime", "image"}, d.Runtime.Image)
	for _, k := range sortedKeys(d.VLLM.Env) {
		add([]string{"vllm", "env", k}, d.VLLM.Env[k])
	}
	for i, a := range d.VLLM.ExtraArgs {
		add([]string{"vllm", "extra_args", strconv.Itoa(i)}, a)
	}
	return out
}

// k8sName turns a (validated) deployment name into a DNS-1035 label short
// enough to take the "-api" suffix: lower case, '.' and '_' become '-'.
func k8sName(name string) string {
	n := strings.Map(func(r rune) rune {
		switch {
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		case r == '.' || r == '_':
			return '-'
		}
		return r
	}, name)
	if len(n) > 58 {
		n = n[:58]
	}
	n = strings.Trim(n, "-")
	if n == "" || n[0] < 'a' || n[0] > 'z' {
		n = "v" + n
	}
	return n
}

// gdiag builds a diagnostic about a spec field, placed by the spec's one
// position pass (spec.Locate).
func gdiag(d *spec.Deployment, code diag.Code, sev diag.Severity, path, msg, hint string) diag.Diagnostic {
	ds := diag.Diagnostics{{Code: code, Severity: sev, File: d.File, Path: path, Message: msg, Hint: hint}}
	d.Locate(ds)
	return ds[0]
}
