package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// secretForms are credentials inside values the bundle writes out (the
// QA38 report's three specs and more): the generator itself refuses them
// (GEN005), for library callers that skip validate, with no bundle and a
// message that does not contain the credential.
var secretForms = []struct {
	name, field, value, secret string
}{
	{"hf token as a URL password", "model.path", "https://me:hf_abcdefghijklmnopqrstuvwxyzABCDEFGH@huggingface.co/deepseek-ai/DeepSeek-V3", "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH"},
	{"aws keys in an s3 URL", "model.path", "s3://AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY@bucket/x", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
	{"github token in the image", "runtime.image", "user:ghp_abcdefghijklmnopqrstuvwxyz0123456789@registry.example.com/vllm:v0.11.0", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"},
	{"gitlab token in an env value", "vllm.env", "https://ci:glpat-AbCdEfGhIjKlMnOpQrSt@hub.example.com", "glpat-AbCdEfGhIjKlMnOpQrSt"},
	{"api key in an argument", "vllm.extra_args", "--chat-template-content=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z", "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"},
}

func setField(d *spec.Deployment, field, v string) {
	switch field {
	case "model.path":
		d.Model.Path = v
	case "runtime.image":
		d.Runtime.Image = v
	case "vllm.env":
		d.VLLM.Env = map[string]string{"HF_ENDPOINT": v}
	case "vllm.extra_args":
		d.VLLM.ExtraArgs = []string{v}
	}
}

// TestGenerateRefusesSecretsInValues: the struct edited (no document
// holds the value) and the document holding it (spec.Load of a file): both
// refused on every runtime.
func TestGenerateRefusesSecretsInValues(t *testing.T) {
	base, err := os.ReadFile(filepath.Join("testdata", "reference", "spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range secretForms {
		t.Run(f.name, func(t *testing.T) {
			for _, rt := range Runtimes {
				d := loadSpec(t, "reference")
				setField(d, f.field, f.value)
				refused(t, "struct "+rt, f.secret, Options{Runtime: rt}, d)
			}
			if f.field != "model.path" {
				return
			}
			// the value written in the document only (the struct's path is
			// the catalog's default): found by the document walk.
			p := filepath.Join(t.TempDir(), "spec.yaml")
			doc := strings.Replace(string(base), "path: /models/DeepSeek-V3", "path: \""+f.value+"\"", 1)
			if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			d, ds := spec.Load(p)
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			spec.ApplyDefaults(d)
			d.Model.Path = "/models/DeepSeek-V3"
			refused(t, "document", f.secret, Options{Runtime: "bare"}, d)
		})
	}
}

func refused(t *testing.T, what, secret string, opt Options, d *spec.Deployment) {
	t.Helper()
	b, ds := gen(t, d, opt)
	if b != nil || !hasCode(ds, CodeSecret) {
		t.Fatalf("%s: want refusal %s, got bundle=%v diags=%v", what, CodeSecret, b != nil, ds)
	}
	for _, x := range ds {
		if strings.Contains(x.Message+x.Hint, secret) {
			t.Errorf("%s: the message echoes the credential: %s", what, x.Message)
		}
	}
}

// TestGenerateKeepsLookalikes: values that share a prefix or shape with a
// credential are written as given.
func TestGenerateKeepsLookalikes(t *testing.T) {
	d := loadSpec(t, "reference")
	d.Model.Path = "/data/sk-learn-models-for-production-2024/task-classifier"
	d.VLLM.Env = map[string]string{"HF_HUB_ENABLE_HF_TRANSFER": "1", "PIP_EXTRA": "hf_transfer", "HF_ENDPOINT": "https://hub.example.com:8443/m@main"}
	d.Runtime.Image = "vllm/vllm-openai:v0.11.0@sha256:3f1a2b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708"
	b, ds := gen(t, d, Options{Runtime: "docker"})
	if b == nil || hasCode(ds, CodeSecret) {
		t.Fatalf("look-alikes refused: %v", ds)
	}
	var all strings.Builder
	for _, f := range b.Files {
		all.Write(f.Data)
	}
	for _, want := range []string{"hf_transfer", "sk-learn-models-for-production-2024", "@sha256:3f1a2b4c"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("bundle lacks %q", want)
		}
	}
}

// TestGenerateRefusesSecretOptions: a credential given to a secret option
// in extra_args (qa45b F1: `--hf-token hf_…` was written into node0.sh)
// is refused by the generator itself, for library callers that skip
// validate: top level and a P/D pool's, the value apart or joined, a value
// of no recognisable token format, on every runtime; no bundle, and no
// message echoes it. A bare --hf-token (the stored login) is written.
func TestGenerateRefusesSecretOptions(t *testing.T) {
	const tok = "hf_abcdefSECRETtoken123" // too short for FindSecrets' Hugging Face pattern
	for _, args := range [][]string{
		{"--hf-token", tok}, {"--hf-token=" + tok}, {"--hf_token", tok},
		{"--seed", "1", "--api-key", "key-" + tok}, {"--api-key=key-" + tok},
	} {
		for _, rt := range Runtimes {
			d := loadSpec(t, "reference")
			d.VLLM.ExtraArgs = args
			refused(t, strings.Join(args, " ")+" "+rt, tok, Options{Runtime: rt}, d)

			pd := loadSpec(t, "pd")
			pd.Disaggregation.Decode.VLLM.ExtraArgs = args
			refused(t, "decode pool: "+strings.Join(args, " ")+" "+rt, tok, Options{Runtime: rt}, pd)
		}
	}
	d := loadSpec(t, "reference")
	d.VLLM.ExtraArgs = []string{"--hf-token", "--seed", "1"}
	b, ds := gen(t, d, Options{Runtime: "docker"})
	if b == nil || hasCode(ds, CodeSecret) {
		t.Fatalf("bare --hf-token refused: %v", ds)
	}
	found := false
	for _, f := range b.Files {
		found = found || strings.Contains(string(f.Data), "--hf-token")
	}
	if !found {
		t.Error("bare --hf-token is not in the bundle")
	}
}
