package generator

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// TestDockerHFCache: a docker bundle of a Hugging Face model id mounts the
// host's model cache (HF_HOME, else ~/.cache/huggingface), so a --rm start
// does not download the checkpoint again (#27); runtime.docker.cache_dir
// replaces it; a model at a path on the hosts, and bare metal, mount none.
func TestDockerHFCache(t *testing.T) {
	const host = `-v "${HF_HOME:-$HOME/.cache/huggingface}":/root/.cache/huggingface \`
	const given = `-v /data/hf-cache:/root/.cache/huggingface \`
	hub := func(d *spec.Deployment) { d.Model.Path = "" }
	tests := []struct {
		name    string
		runtime string
		edit    func(d *spec.Deployment)
		want    string // the cache mount line, "" for none
	}{
		{"hub id", "docker", func(d *spec.Deployment) { hub(d); d.Runtime.Docker.CacheDir = "" }, host},
		{"hub id, cache_dir", "docker", hub, given},
		{"local path", "docker", func(d *spec.Deployment) { d.Runtime.Docker.CacheDir = "" }, ""},
		{"local path, cache_dir", "docker", func(d *spec.Deployment) {}, given},
		{"hub id on bare metal", "bare", func(d *spec.Deployment) { hub(d); d.Runtime.Docker.CacheDir = "" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := loadSpec(t, "reference")
			tt.edit(d)
			b, ds := gen(t, d, Options{Runtime: tt.runtime})
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			for _, f := range []string{"node0.sh", "node3.sh"} {
				s := string(fileData(t, b, f))
				var got []string
				for _, line := range strings.Split(s, "\n") {
					if strings.Contains(line, ":/root/.cache/huggingface") {
						got = append(got, strings.TrimSpace(line))
					}
				}
				want := []string{}
				if tt.want != "" {
					want = []string{tt.want}
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%s: cache mounts %q, want %q", f, got, want)
				}
			}
			readme := string(fileData(t, b, "README.md"))
			if says := strings.Contains(readme, "mount the host's Hugging Face cache"); says != (tt.want == host) {
				t.Errorf("README mentions the host's cache: %v, want %v", says, tt.want == host)
			}
		})
	}
}
